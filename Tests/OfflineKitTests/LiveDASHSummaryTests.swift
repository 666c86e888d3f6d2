import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The snapshot's live summary of a DASH recording reads only the journals of
/// `live-dash.json`, never its segment entries, which grow with the recording (as HLS leaves
/// `live.log` unread).
@Suite(.timed) struct LiveDASHSummaryTests {
  /// A two-track recording of `count` segments each, one gap, still recording.
  func state(segments count: Int) -> DASHLiveState {
    let paths = [0, 1].map { RepresentationPath(period: 0, adaptationSet: $0, representation: 0) }
    var state = DASHLiveState(
      manifestURL: URL(string: "http://127.0.0.1/live.mpd")!,
      tracks: paths.map { DASHLiveState.Track($0, periodKey: "p0", ordinal: 0) })
    for track in state.tracks.indices {
      state.tracks[track].journal.firstSequence = 1
      state.tracks[track].journal.nextSequence = count + 3
      state.tracks[track].journal.recorded = SequenceRanges(1...count)
      state.tracks[track].journal.ledger.add(
        LiveGap(sequences: (count + 1)...(count + 1), reason: .fellOutOfWindow))
      state.tracks[track].journal.asked = [count + 2: 2]
      state.tracks[track].journal.recordedSeconds = Double(count) * (track == 0 ? 2 : 1.92)
      for number in 1...count {
        state.tracks[track].segments[number] = .init(
          local: "p0/a\(track)-r0/t\(number).m4s", time: UInt64(number), duration: 1)
      }
    }
    return state
  }

  /// `state` written to `folder` with each track's segment entries replaced by `count`
  /// entries that no segment decoder accepts.
  func writeWithUndecodableSegments(_ state: DASHLiveState, count: Int, in folder: URL) throws {
    try state.write(in: folder)
    let file = folder.appending(path: DASHLiveState.fileName)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    var tracks = try #require(object["tracks"] as? [[String: Any]])
    for index in tracks.indices {
      tracks[index]["segments"] = Dictionary(
        uniqueKeysWithValues: (0..<count).map { ("not a number \($0)", "not a segment") })
    }
    object["tracks"] = tracks
    try JSONSerialization.data(withJSONObject: object).write(to: file)
  }

  @Test func theSummaryOfALiveDASHRecordingIsTheSameReadFromItsJournalsAlone() throws {
    let folder = try TemporaryDirectory()
    let state = state(segments: 500)
    try state.write(in: folder.url)
    let summary = try #require(LiveRecordingSummary(folder: folder.url, downloading: true))
    #expect(summary == LiveRecordingSummary(state, downloading: true))
    #expect(summary.recordedSegments == 500)
    #expect(abs(summary.recordedSeconds - 960) < 1e-9)
    #expect(
      summary.gaps == [.init(firstSequence: 501, lastSequence: 501, reason: .fellOutOfWindow)])
    #expect(summary.isRecording && summary.liveEdgeDelay == 2)
  }

  /// Pins the cost: the summary used to decode the whole state, every segment entry
  /// included, so a snapshot cost more the longer the recording. Entries it cannot decode
  /// must not matter to it when it never decodes them.
  @Test func theSummaryNeverDecodesTheSegmentEntries() throws {
    let folder = try TemporaryDirectory()
    let state = state(segments: 40)
    try writeWithUndecodableSegments(state, count: 2_000, in: folder.url)
    #expect(DASHLiveState.read(in: folder.url) == nil, "the full state decodes its segments")
    let summary = try #require(LiveRecordingSummary(folder: folder.url, downloading: false))
    #expect(summary == LiveRecordingSummary(state, downloading: false))
    #expect(summary.recordedSegments == 40)
    #expect(!summary.isRecording)
  }
}
