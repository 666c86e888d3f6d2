import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A live DASH presentation whose Periods follow one another (issue 41 item 6,
/// multi-Period): a new Period appears at each boundary and earlier ones leave the window;
/// the recording goes on across them, and the offline MPD lists every recorded Period in
/// order. ffmpeg 5.1's DASH demuxer reads the first Period of an MPD only, so each Period is
/// decoded on its own, from an MPD of that Period alone made from the offline one.
extension LiveDASHRecordingTests {
  @Test func aPresentationOfSeveralPeriodsIsRecordedAcrossThemInOrder() async throws {
    let origin = try await DASHLiveOrigin(segmentCount: 18, window: 4, periodLength: 6)
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(recorded.state.finished == .endList)
    // Two tracks (video, audio) in each of the three Periods, each Period whole.
    #expect(recorded.state.tracks.count == 6, "\(recorded.state.tracks.map(\.path))")
    for (index, track) in recorded.state.tracks.enumerated() {
      let period = index / 2
      #expect(track.journal.ledger.gaps.isEmpty, "\(track.journal.ledger)")
      #expect(recorded.recorded(index) == Array((period * 6 + 1)...(period * 6 + 6)))
    }
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    let offline = try MPDParser.parse(Data(text.utf8))
    #expect(offline.type == .static)
    #expect(offline.periods.map(\.id) == ["p0", "p1", "p2"], "\(text)")
    #expect(offline.periods.map(\.start) == [0, 6, 12], "\(text)")
    #expect(offline.mediaPresentationDuration.map { abs($0 - 18) < 0.1 } == true)
    let partial = recorded.folder.appending(path: DASHPartialManifest.fileName)
    #expect(try String(contentsOf: partial, encoding: .utf8) == text)
    for period in offline.periods.indices {
      var single = offline
      single.periods = [offline.periods[period]]
      single.periods[0].start = 0
      single.mediaPresentationDuration = offline.periods[period].duration
      let file = recorded.folder.appending(path: "period\(period).mpd")
      try MPDWriter.write(single).write(to: file, atomically: true, encoding: .utf8)
      let decoded = try await FFmpeg.decode(file.path)
      #expect(decoded.errors.isEmpty, "Period \(period): \(decoded.errors)")
      #expect(abs(decoded.duration - 6) < 0.6, "Period \(period): \(decoded.duration) s")
      let pictures = try await FFmpeg.frameMD5s(file.path, stream: "v:0")
      let numbers = Array((period * 6 + 1)...(period * 6 + 6))
      let expected = try await FFmpeg.frameMD5s(
        ofJoined: try origin.joined(stream: 0, numbers), video: true, in: recorded.store.url)
      #expect(!expected.hashes.isEmpty)
      #expect(pictures.hashes == expected.hashes, "Period \(period)")
    }
  }
}
