import DASHManifest
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// A split live DASH recording whose tracks count their media times from far apart, each
/// with its `@presentationTimeOffset` (ISO/IEC 23009-1 5.3.9: presented at
/// `(t - presentationTimeOffset) / timescale`): the cut and the offline MPD go by
/// presentation time, never by media time.
@Suite(.timed) struct DASHLivePartsOffsetTests {
  /// Video counts from the epoch at 90 kHz, audio from an hour later at 48 kHz.
  static let videoOffset: UInt64 = 1_765_000_000 * 90_000
  static let audioOffset: UInt64 = 1_765_003_600 * 48_000

  /// A live MPD with the video and the audio Representation the state records.
  static let liveMPD = """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" minBufferTime="PT2S"
      availabilityStartTime="2025-12-06T00:00:00Z" profiles="urn:mpeg:dash:profile:isoff-live:2011">
    <Period id="p" start="PT0S">
    <AdaptationSet id="0" contentType="video" mimeType="video/mp4">
    <Representation id="v" bandwidth="300000" codecs="avc1.42c00b" width="160" height="90">
    <SegmentTemplate timescale="90000" duration="180000" startNumber="1"
      media="v-$Number$.m4s" initialization="v-init.mp4"/></Representation></AdaptationSet>
    <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4">
    <Representation id="a" bandwidth="64000" codecs="mp4a.40.2">
    <SegmentTemplate timescale="48000" duration="92160" startNumber="1"
      media="a-$Number$.m4s" initialization="a-init.mp4"/></Representation></AdaptationSet>
    </Period></MPD>
    """

  /// ``DASHLivePartsTests/state()`` (video 2 s segments 1...5, audio 1.92 s segments 1...8
  /// with 7 failed) with each track's times moved by its offset.
  func offsetState() -> DASHLiveState {
    var state = DASHLivePartsTests().state()
    for (index, offset) in [(0, Self.videoOffset), (1, Self.audioOffset)] {
      var track = state.tracks[index]
      let scale = index == 0 ? 90_000 / 1_000 : 1
      track.timescale = index == 0 ? 90_000 : 48_000
      track.presentationTimeOffset = Int64(offset)
      for (number, segment) in track.segments {
        let time = offset + segment.time * UInt64(scale)
        track.segments[number] = .init(
          local: DASHLiveTimeTemplate.localName(folder: track.localFolder, time: time),
          time: time, duration: segment.duration * UInt64(scale))
      }
      state.tracks[index] = track
    }
    return state
  }

  /// Pins the cut of issue 41's `--split` with a `@presentationTimeOffset`: it compared
  /// media times, so no audio segment (an hour later in media time) started before the
  /// video's end, and the part kept none of its audio.
  @Test func aPartIsCutAtOnePresentationTimeWhenTheTracksMediaTimesStartApart() throws {
    let (kept, seed) = try #require(DASHLiveParts.cut(offsetState()))
    let (plainKept, plainSeed) = try #require(DASHLiveParts.cut(DASHLivePartsTests().state()))
    #expect(kept.tracks.map(\.journal) == plainKept.tracks.map(\.journal))
    #expect(seed.tracks.map(\.journal) == plainSeed.tracks.map(\.journal))
    #expect(kept.tracks[1].journal.recorded == SequenceRanges(1...6))
    #expect(
      seed.tracks.map(\.presentationTimeOffset)
        == [Self.videoOffset, Self.audioOffset].map { Int64($0) })
  }

  /// The offline MPD keeps each track's media times and sets its `@presentationTimeOffset`
  /// so that its first segment plays at the Period's start, beside the other track's.
  @Test func theOfflineMPDPresentsEveryTrackFromThePeriodsStart() throws {
    let (kept, _) = try #require(DASHLiveParts.cut(offsetState()))
    let live = try MPDParser.parse(Data(Self.liveMPD.utf8))
    let offline = try #require(kept.offlineManifest(from: live))
    let templates = offline.periods[0].adaptationSets.flatMap(\.representations).compactMap(
      \.segmentInfo.template)
    #expect(templates.count == 2)
    #expect(
      templates.map(\.presentationTimeOffset)
        == [Self.videoOffset, Self.audioOffset].map { Int64($0) })
    #expect(templates.map { $0.timeline?.first?.time } == [Self.videoOffset, Self.audioOffset])
    // Video 5 x 2 s, audio 6 x 1.92 s: the Period lasts as the shorter, 10 s.
    #expect(abs((offline.periods[0].duration ?? 0) - 10) < 1e-6)
  }
}
