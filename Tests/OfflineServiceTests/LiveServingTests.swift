import Foundation
import OfflineKit
import TestSupport
import Testing

/// Issue 41, item 4: a live recording is playable while it records, through `offline serve`
/// too. The service hands players the growing playlist by its local name
/// (`/content/<id>/index-partial.m3u8`), and the finished recording by `index.m3u8`. The
/// origin publishes 24 one-second segments, holding after the eighth until the test has
/// looked (and the recording waits out a minute of silence), so the recording surely goes
/// on while the test looks, however loaded the machine (session 38's CI: a loaded machine
/// took so long to list three segments that the recording had ended).
@Suite("offline serve plays a live recording", .serialized, .timed)
struct LiveServingTests {
  /// Seconds of media ffmpeg's `-progress` output says it decoded.
  private static func played(_ output: ProcessRunner.Output) -> Double {
    output.stdoutText.split(separator: "\n").last { $0.hasPrefix("out_time_us=") }
      .flatMap { Double($0.dropFirst("out_time_us=".count)) }.map { $0 / 1_000_000 } ?? 0
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func aPlayerPlaysTheRecordingThroughTheServiceWhileItRecordsAndWhenItEnds() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 24, window: 6, initialSegments: 4, holdsAfter: 107))
    try origin.start()
    defer { origin.stop() }
    let fixture = try await ServiceFixture()
    var configuration = DownloadConfiguration()
    configuration.stream.live.start = .fromStart
    configuration.stream.live.endAfterSilence = .seconds(60)
    let content = try #require(
      try await fixture.manager.add([OfflineSource(url: origin.url)], configuration: configuration)
        .first)

    // While it records: the growing playlist, once it lists three segments.
    let growing = fixture.url("/content/\(content.id)/index-partial.m3u8")
    var listed = 0
    for _ in 0..<300 where listed < 3 {
      let response = try await Curl.fetch(growing)
      listed =
        response.status == 200
        ? String(decoding: response.body, as: UTF8.self).components(separatedBy: "#EXTINF").count
          - 1 : 0
      if listed < 3 { try await Task.sleep(for: .milliseconds(100)) }
    }
    #expect(listed >= 3, "the service never listed three recorded segments")
    #expect(try await content.state == .downloading)
    let live = try await FFmpeg.run(
      [
        "-v", "error", "-i", growing, "-t", "2", "-f", "null", "-", "-progress", "pipe:1",
        "-nostats",
      ], timeout: 60)
    #expect(live.stderrText.isEmpty, "\(live.stderrText)")
    #expect(Self.played(live) >= 1.9, "\(Self.played(live)) s while recording")
    #expect(try await content.state == .downloading)
    origin.release()

    // When it ends: downloaded, and the whole recording plays from the service.
    _ = try await content.waitUntilDownloaded()
    let whole = try await FFmpeg.run(
      [
        "-v", "error", "-i", fixture.url("/content/\(content.id)/index.m3u8"), "-f", "null", "-",
        "-progress", "pipe:1", "-nostats",
      ], timeout: 60)
    #expect(whole.stderrText.isEmpty, "\(whole.stderrText)")
    #expect(abs(Self.played(whole) - 24) < 0.6, "\(Self.played(whole)) s of 24")
    await fixture.close()
  }
}
