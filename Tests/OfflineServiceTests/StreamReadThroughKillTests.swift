import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 40: `offline serve` killed with SIGKILL while ffmpeg plays an HLS stream through it,
/// then started again: the download goes on from its journal, the segments fetched for the
/// player are kept, and the offline copy plays whole.
@Suite("offline serve killed while a player reads a stream through", .serialized, .timed)
struct StreamReadThroughKillTests {
  /// A 40-segment stream (the 1200 kb/s variant chosen, about 6 MB) added with
  /// `--limit-rate 200k`, so its download takes about 30 s. ffmpeg plays the read-through
  /// playlist from 20 s (the download, in playback order, is near its start: the player's
  /// segments are fetched ahead of it); the service is killed while ffmpeg plays. Started
  /// again, it finishes the download. nginx answered in full at most the segments in
  /// flight at the kill twice (their bytes were in the killed process's buffers), the
  /// player never reached the origin, `verify` finds every segment, and ffmpeg decodes the
  /// offline copy to its full 40 s.
  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(3)))
  func aKilledServiceKeepsWhatThePlayerPulledIn() async throws {
    let origin = try TemporaryDirectory(prefix: "offlinekit-stream-kill-origin")
    let files = try await HLSFixture.tsVariants.make(in: origin.url, segmentCount: 40)
    let nginx = try NginxServer(root: origin.url)
    try nginx.start()
    defer { nginx.stop() }
    let store = try TemporaryDirectory(prefix: "offlinekit-stream-kill-store")
    let port = try FreePort.make()
    let output = store.file("serve.out")
    var serve = try await ServeBinary.serve(store: store.url, port: port, output: output)
    defer { serve.killIfRunning() }
    let id = try await ServeBinary.add(
      files.url(on: nginx), store: store.url, ["--limit-rate", "200k"])
    let service = "http://127.0.0.1:\(port)"
    let playlist = "\(service)/content/\(id)/index-through.m3u8"
    var status = 0
    for _ in 0..<200 where status != 200 {
      status = (try? await Curl.fetch(playlist))?.status ?? 0
      if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(status == 200, "the read-through playlist")

    let player = Task {
      try await FFmpeg.run(
        ["-v", "error", "-ss", "20", "-i", playlist, "-t", "10", "-f", "null", "-"],
        timeout: 60)
    }
    // Killed once the player's first segments came from the origin.
    var before: [AccessLogEntry] = []
    for _ in 0..<200 where !before.contains(where: { Self.segmentNumber($0.uri) ?? 0 >= 20 }) {
      try await Task.sleep(for: .milliseconds(50))
      before = try nginx.accessLog()
    }
    #expect(before.contains { Self.segmentNumber($0.uri) ?? 0 >= 20 }, "the player's segments")
    kill(serve.processIdentifier, SIGKILL)
    _ = try? await player.value
    while serve.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    let atKill = try nginx.accessLog().count

    serve = try ServeBinary.start(
      ["serve", "--listen", "127.0.0.1:\(port)"], store: store.url, output: output)
    let state = try await ServeBinary.waitForState("downloaded", of: id, port: port)
    #expect(state == "downloaded")
    #expect(await serve.stopBounded() == 130)

    let log = try nginx.accessLog()
    #expect(!log.contains { $0.userAgent?.hasPrefix("Lavf") == true }, "ffmpeg asked the origin")
    var answered: [String: Int] = [:]
    for entry in log where entry.uri.hasSuffix(".ts") && entry.status == 200 {
      let file = origin.url.appending(path: String(entry.uri.dropFirst())).path
      let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int
      if entry.bodyBytesSent == Int64(size ?? -1) { answered[entry.uri, default: 0] += 1 }
    }
    let twice = answered.filter { $0.value > 1 }
    // At most what was in flight at the kill: the run's pieces and the player's two.
    #expect(twice.count <= 8, "segments fetched twice: \(twice)")
    let forThePlayer = log[..<atKill].filter { Self.segmentNumber($0.uri) ?? 0 >= 20 }
    #expect(!forThePlayer.isEmpty)

    let verified = try await ProcessRunner.run(
      ServeBinary.path, ["--store", store.path, "verify", id], timeout: 60)
    #expect(verified.status == 0, "\(verified.stdoutText) \(verified.stderrText)")
    let path = try await ProcessRunner.run(
      ServeBinary.path, ["--store", store.path, "path", id], timeout: 30)
    let offline = path.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    let played = try await FFmpeg.run(
      [
        "-v", "error", "-i", offline, "-f", "null", "-", "-progress", "pipe:1", "-nostats",
      ], timeout: 60)
    #expect(played.status == 0, "\(played.stderrText)")
    let seconds =
      played.stdoutText.split(separator: "\n").last { $0.hasPrefix("out_time_us=") }
      .flatMap { Double($0.dropFirst("out_time_us=".count)) }.map { $0 / 1_000_000 } ?? 0
    #expect(abs(seconds - 40) < 0.5, "played \(seconds) s")
  }

  /// The number in a segment's name (`/v2/seg23.ts` is 23), nil for another file.
  private static func segmentNumber(_ uri: String) -> Int? {
    guard uri.hasSuffix(".ts") else { return nil }
    let name = uri.split(separator: "/").last ?? ""
    return Int(name.filter(\.isNumber))
  }
}
