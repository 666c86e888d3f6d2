import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Without `/proc` (Apple platforms, sandboxes), reachability is unknown, and unknown is
/// not "unreachable": downloads go ahead and their own errors decide (issue 18, item 3).
@Suite(.timed) struct HiddenProcTests {
  /// Pins issue 18: with `/proc` hidden, `Reachability` answered "no default route" for every
  /// host name, so every download on a system without `/proc` waited for the network forever.
  @Test(.timeLimit(.minutes(1)))
  func unreadableRoutingTablesMakeReachabilityUnknownNotUnreachable() async throws {
    let empty = try TemporaryDirectory(prefix: "offlinekit-noproc")
    let reachability = Reachability(procRoot: empty.path, sysRoot: empty.path)
    for host in ["media.example", "10.1.2.3", "2001:db8::5"] {
      let status = reachability.isReachable(host: host)
      #expect(status == .unknown("no routing table at \(empty.path)/net"), "\(host)")
      #expect(!status.isUnreachable)
    }
    #expect(reachability.isReachable(host: "127.0.0.1") == .reachable)
    try await reachability.waitUntilReachable(host: "media.example", pollInterval: .seconds(60))
  }

  /// Pins issue 18: the queue held a download of `media.example` (reached through a proxy on
  /// 127.0.0.1, our fault server) with reason `network` for as long as `/proc` was hidden.
  @Test(.timeLimit(.minutes(1))) func aDownloadGoesAheadWhenProcIsHidden() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let body = TestData.bytes(count: 300_000, seed: 41)
    server.setRoute("http://media.example/a.bin", .resource(.init(body: body, etag: "\"e\"")))
    let empty = try TemporaryDirectory(prefix: "offlinekit-noproc")
    let store = try TemporaryDirectory()
    let proxy = try Proxy(parsing: "http://127.0.0.1:\(server.port)")
    let manager = try OfflineManager(
      directory: store.url,
      configuration: .init(
        pollInterval: .milliseconds(50),
        transport: CurlTransport(configuration: .init(proxy: proxy)),
        reachability: Reachability(procRoot: empty.path, sysRoot: empty.path)))
    let url = try #require(URL(string: "http://media.example/a.bin"))
    let content = try await manager.content(for: OfflineSource(url: url))
    let events = content.events
    try await content.download()
    try await manager.start()

    var waitedForNetwork = false
    for await event in events {
      if event.snapshot?.waitReason == .network { waitedForNetwork = true }
      if case .finished = event { break }
      if waitedForNetwork { break }
    }
    await manager.stop(suspendingRunning: false)

    #expect(!waitedForNetwork, "held for a network it cannot see")
    let file = try await content.playbackURL()
    #expect(FileManager.default.contents(atPath: file.path) == body)
    #expect(server.requests(for: "http://media.example/a.bin").count == 1)
  }
}
