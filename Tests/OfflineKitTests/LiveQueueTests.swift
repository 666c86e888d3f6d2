import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A live HLS stream through the manager's queue (issue 41): the same path as `offline get`
/// records it, and it ends as an ordinary downloaded content whose every segment is hashed.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct LiveQueueTests {
  @Test func aQueuedLiveStreamIsRecordedThenDownloadedAndVerified() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 8, window: 5, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(origin.url, id: "live")
    try await content.download()
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
  }
}
