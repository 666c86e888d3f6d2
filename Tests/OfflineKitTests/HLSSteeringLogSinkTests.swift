import Foundation
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a queued HLS stream whose steering manifest does not load (404), and
/// whose manifest, once it loads, names a malformed clone: each reaches the manager's log
/// sink, naming the content, and the stream downloads from the playlist's own order.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct HLSSteeringLogSinkTests {
  @Test(arguments: [nil, #"{"VERSION":1,"PATHWAY-PRIORITY":["A"],"PATHWAY-CLONES":[7]}"#])
  func whatSteeringWentOnWithoutReachesTheManagersLog(manifest: String?) async throws {
    let cdns = try await StreamFailoverTests.TwoCDNs(hls: .fmp4)
    defer { cdns.nginx.stop(graceful: false) }
    let master = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="/steering.json?token=secret",PATHWAY-ID="A"
      #EXT-X-STREAM-INF:BANDWIDTH=300000,PATHWAY-ID="A"
      cdn1/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000,PATHWAY-ID="B"
      cdn2/index.m3u8
      """
    try master.write(to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    if let manifest {
      try manifest.write(to: cdns.www.file("steering.json"), atomically: true, encoding: .utf8)
    }
    let fixture = try ManagerFixture()
    let logged = Locked<[OfflineLogMessage]>([])
    var configuration = ManagerFixture.configuration()
    configuration.log = { message in logged.withLock { $0.append(message) } }
    let manager = try OfflineManager(directory: fixture.store, configuration: configuration)
    let content = try await manager.content(
      for: OfflineSource(url: cdns.nginx.url("/master.m3u8"), id: "steered"))
    try await content.download(DownloadConfiguration(stream: StreamFailoverTests.quickRetries))
    #expect(try await runUntilIdle(manager, timeout: .seconds(60)))
    let snapshot = try await content.snapshot
    await manager.close()
    #expect(snapshot.state == .downloaded, "\(snapshot.lastError?.description ?? "")")

    let messages = logged.withLock { $0 }.filter { $0.message.contains("content steering") }
    #expect(messages.count == 1, "\(logged.withLock { $0 })")
    #expect(messages.first?.contentID == "steered")
    let text = messages.first?.message ?? ""
    #expect(!text.contains("secret"), "\(text)")
    if manifest == nil {
      #expect(text.contains(cdns.nginx.url("/steering.json").absoluteString + "?…"), "\(text)")
      #expect(text.contains("404"), "\(text)")
    } else {
      #expect(text.contains("pathway clone 1 is not an object"), "\(text)")
    }
  }
}
