import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 43, item 3: `offline get` (not queued) of an HLS stream whose steering manifest
/// does not load tells so, as a queued run's log does: a `Warning:` line on standard error,
/// a `warning` event with `--json`; the stream downloads from the playlist's own order.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct GetSteeringNotesTests {
  let www: TemporaryDirectory
  let nginx: NginxServer

  init() async throws {
    www = try TemporaryDirectory(prefix: "offlinekit-steering-notes")
    let served = www.url.appending(path: "origin")
    _ = try await HLSFixture.fmp4.make(in: served.appending(path: "cdn1"), segmentCount: 3)
    try FileManager.default.copyItem(
      at: served.appending(path: "cdn1"), to: served.appending(path: "cdn2"))
    // No steering.json: the steering server answers 404.
    let master = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="/steering.json?token=secret",PATHWAY-ID="A"
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="A"
      cdn1/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="B"
      cdn2/index.m3u8

      """
    try master.write(
      to: served.appending(path: "master.m3u8"), atomically: true, encoding: .utf8)
    nginx = try NginxServer(root: served)
    try nginx.start()
  }

  func get(_ extra: [String]) async throws -> OfflineRun {
    try await InProcessOffline.run(
      [
        "--store", www.url.appending(path: "store").path, "get",
        nginx.url("/master.m3u8").absoluteString, "-o", www.url.appending(path: "movie").path,
      ] + extra, timeout: 120)
  }

  @Test func getTellsOnStandardErrorThatTheSteeringManifestDidNotLoad() async throws {
    defer { nginx.stop(graceful: false) }
    let result = try await get([])
    #expect(result.status == 0, "\(result.stderrText)")
    let lines = result.stderrText.split(separator: "\n").filter { $0.contains("content steering") }
    #expect(lines.count == 1, "\(result.stderrText)")
    #expect(lines.first?.hasPrefix("Warning: content steering: the manifest at ") == true)
    #expect(lines.first?.contains("did not load") == true, "\(lines)")
    #expect(lines.first?.contains("secret") == false, "the URL is redacted: \(lines)")
  }

  @Test func getJSONHasAWarningEventForIt() async throws {
    defer { nginx.stop(graceful: false) }
    let result = try await get(["--json"])
    #expect(result.status == 0, "\(result.stderrText)")
    let warnings = result.stdoutText.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }.filter { $0["event"] as? String == "warning" }
    let messages = warnings.compactMap { $0["message"] as? String }
    #expect(
      messages.contains {
        $0.hasPrefix("content steering: the manifest at ") && $0.contains("404")
      },
      "\(result.stdoutText)")
    #expect(result.stdoutText.contains(#""event":"finished""#), "\(result.stdoutText)")
  }
}
