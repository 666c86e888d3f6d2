import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

/// `offline path` of a stream that is not all on disk (issue 40, item 1): the growing
/// playlist of what is, said to be partial on stderr; a content never downloaded is still
/// refused naming its state.
@Suite(.enabled(if: FFmpeg.isAvailable), .timed) struct PathCommandTests {
  @Test(.timeLimit(.minutes(2)))
  func aPausedStreamsPathIsThePlaylistOfWhatIsOnDisk() async throws {
    let origin = try await HLSOrigin(.aes128Rotating, segmentCount: 20)
    defer { origin.nginx.stop() }
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store")
    let manager = try OfflineManager(directory: store)
    try await manager.setRateLimit(ByteRate(bytesPerSecond: 40_000))
    let content = try await manager.content(for: OfflineSource(url: origin.url, id: "show"))
    var configuration = DownloadConfiguration()
    configuration.stream.parallelSegments = 1  // in order: the first segments land first
    configuration.stream.maxConnections = 1
    try await content.download(configuration)
    try await manager.start()
    var partial: URL?
    for _ in 0..<1200 where partial == nil {
      if let url = try? await content.playbackURL(),
        (try? String(contentsOf: url, encoding: .utf8))?.contains("#EXTINF") == true
      {
        partial = url
      } else {
        try await Task.sleep(for: .milliseconds(50))
      }
    }
    try await content.suspend()
    await manager.close()
    #expect(partial != nil, "a segment on disk within a minute")

    let path = try await InProcessOffline.run(["--store", store.path, "path", "show"])
    #expect(path.status == 0, "\(path.stderrText)")
    let printed = path.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(printed.hasSuffix("/content/show/index-partial.m3u8"))
    #expect(path.stderrText.contains("not all on disk"), "\(path.stderrText)")
    let decoded = try await FFmpeg.decode(printed)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(decoded.duration >= 1 && decoded.duration < 20, "\(decoded.duration) s on disk")

    let fresh = try await InProcessOffline.run([
      "--store", store.path, "add", origin.url.absoluteString, "--id", "later",
    ])
    #expect(fresh.status == 0)
    _ = try await InProcessOffline.run(["--store", store.path, "pause", "later"])
    let refused = try await InProcessOffline.run(["--store", store.path, "path", "later"])
    #expect(refused.status == 1)
    #expect(
      refused.stderrText.contains("Cannot print the path of content later: it is"),
      "\(refused.stderrText)")
  }
}
