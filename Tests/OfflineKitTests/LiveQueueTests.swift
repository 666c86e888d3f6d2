import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A live HLS stream through the manager's queue (issue 41): the same path as `offline get`
/// records it, and it ends as an ordinary downloaded content whose every segment is hashed.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct LiveQueueTests {
  /// The origin holds after its fifth segment until the test has seen the recording go on
  /// (with a minute of silence allowed): on a loaded machine it could have ended first.
  @Test func aQueuedLiveStreamIsRecordedThenDownloadedAndVerified() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 8, window: 5, initialSegments: 3, holdsAfter: 104))
    try origin.start()
    defer { origin.stop() }
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(origin.url, id: "live")
    var configuration = DownloadConfiguration()
    configuration.stream.live.endAfterSilence = .seconds(60)
    try await content.download(configuration)
    let (growing, finished) = try await fixture.running {
      // While it records, the content plays from the growing playlist.
      var growing: URL?
      var text = ""
      for _ in 0..<200 where !text.contains("#EXTINF") {
        try await Task.sleep(for: .milliseconds(50))  // at most 10 s
        growing = try? await content.playbackURL()
        text = growing.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
      }
      #expect(text.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && text.contains("#EXTINF"), "\(text)")
      #expect(try await content.state == .downloading)
      origin.release()
      let finished = await recorder.waitFor(timeout: .seconds(60)) {
        if case .finished = $0 { return true }
        return false
      }
      return (growing, finished)
    }
    #expect(growing?.lastPathComponent == "index-partial.m3u8")
    #expect(finished, "\(recorder.names)")
    #expect(try await content.state == .downloaded)
    let source = try await content.playbackURL()
    #expect(source.lastPathComponent == "index.m3u8")
    let text = try String(contentsOf: source, encoding: .utf8)
    #expect(text.contains("#EXT-X-ENDLIST"))
    let decoded = try await FFmpeg.decode(source.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    let state = try #require(LiveRecordState.read(in: fixture.contentFolder("live")))
    #expect(state.finished == .endList)
    #expect(state.journal.ledger.gaps.isEmpty)
    let segments = state.journal.recorded.count
    #expect(segments >= 3, "from the live edge: \(segments)")
    let report = try await content.verify()
    #expect(report.isWhole)
    // Each segment, the playlist, live.json and offline.json.
    #expect(report.filesChecked >= segments + 3, "\(report.filesChecked)")

    // A damaged segment is not fetched again, even one the origin still serves: a run
    // would start a second recording over the first. The repair says so and changes nothing.
    let folder = fixture.contentFolder("live")
    let number = try #require(state.journal.recorded.last)
    let last = try #require(state.entries[number])
    try Data(repeating: 0x47, count: 188).write(to: folder.appending(path: last.local))
    let refused = try await fixture.running { () async throws -> String in
      do {
        try await content.repair()
        return "the repair of a finished live recording said it worked"
      } catch {
        return "\(error)"
      }
    }
    #expect(refused.contains("live recording that ended"), "\(refused)")
    #expect(LiveRecordState.read(in: folder) == state, "the recording's journal is untouched")
  }

  /// Issue 41, item 7: pause stops recording and keeps a playable content (suspended), and
  /// resume goes on from the live edge with the pause in the ledger.
  @Test func aPausedRecordingIsSuspendedPlayableAndResumesAfterAGap() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 16, window: 4, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(origin.url, id: "live")
    try await content.download()
    let finished = try await fixture.running {
      var text = ""
      for _ in 0..<200 where text.components(separatedBy: "#EXTINF").count < 4 {
        try await Task.sleep(for: .milliseconds(50))  // at most 10 s: three segments listed
        let growing = try? await content.playbackURL()
        text = growing.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
      }
      try await content.suspend()
      let suspended = await recorder.waitFor(timeout: .seconds(20)) {
        $0.name == "state:suspended"
      }
      #expect(suspended, "\(recorder.names)")
      let paused = try await content.playbackURL()
      let closed = try String(contentsOf: paused, encoding: .utf8)
      #expect(closed.contains("#EXT-X-ENDLIST"), "a paused recording plays to its end: \(closed)")
      #expect(try await FFmpeg.decode(paused.path).errors.isEmpty)
      try await Task.sleep(for: .seconds(5))  // longer than the window
      try await content.resume()
      return await recorder.waitFor(timeout: .seconds(60)) {
        if case .finished = $0 { return true }
        return false
      }
    }
    #expect(finished, "\(recorder.names)")
    #expect(try await content.state == .downloaded)
    let state = try #require(LiveRecordState.read(in: fixture.contentFolder("live")))
    #expect(state.finished == .endList)
    #expect(state.journal.ledger.gaps.map(\.reason) == [.notRunning], "\(state.journal.ledger)")
    #expect(state.journal.unaccounted().isEmpty)
    let decoded = try await FFmpeg.decode(try await content.playbackURL().path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(try await content.verify().isWhole)
  }
}
