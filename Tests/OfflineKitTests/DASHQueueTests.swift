import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 17, item 3: a DASH presentation through the manager as an HLS stream goes: the
/// state machine, events, progress that never moves back, the offline source, deletion.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct DASHQueueTests {
  @Test func theQueueDownloadsAPresentationWithEventsAndDeletesIt() async throws {
    let origin = try await DASHOrigin(.long, options: .init(limitRate: "400k"))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(origin.url, id: "show")
    try await content.download()
    let finished = try await fixture.running {
      await recorder.waitFor(timeout: .seconds(60)) {
        if case .finished = $0 { return true }
        return false
      }
    }
    #expect(finished, "\(recorder.names)")
    let names = recorder.names
    #expect(Array(names.prefix(2)) == ["state:notDownloaded", "state:downloading"], "\(names)")
    #expect(names.contains("state:downloaded") && names.last == "finished", "\(names)")
    let fractions = recorder.events.compactMap { event -> Double? in
      guard case .progress(let progress) = event, let total = progress.total, total > 0 else {
        return nil
      }
      return Double(progress.bytes) / Double(total)
    }
    #expect(fractions.count > 1, "progress was reported as it went")
    #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "\(fractions)")
    #expect(fractions.allSatisfy { $0 <= 1 })
    #expect(try await content.state == .downloaded)
    let source = try await content.playbackURL()
    #expect(source.lastPathComponent == "index.mpd")
    origin.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(source.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - DASHStreamFixture.long.duration) < 0.6)

    try await content.deleteOfflineData()
    #expect(try await content.state == .notDownloaded)
    #expect(!FileManager.default.fileExists(atPath: source.path))
  }
}
