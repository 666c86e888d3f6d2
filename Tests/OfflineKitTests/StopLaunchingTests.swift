import Foundation
import TestSupport
import Testing

@testable import OfflineKit

/// `OfflineManager.stopLaunching()`, the hook `offline serve` shuts down with (issue 36,
/// item 10).
@Suite("stopLaunching starts nothing more", .serialized)
struct StopLaunchingTests {
  // Pins: while the manager stopped its running downloads, one that ended pumped the queue
  // and started the next, which nobody stopped: `serve` exited with transfers running.
  // Once launches are stopped, a download that ends starts nothing; `start()` goes on.
  @Test func aDownloadThatEndsStartsNothingOnceLaunchesAreStopped() async throws {
    let origin = try TemporaryDirectory(prefix: "offlinekit-stop-launching")
    for name in ["a.bin", "b.bin", "c.bin"] {
      try TestData.writeFile(at: origin.file(name), count: 1_500_000)
    }
    let nginx = try NginxServer(root: origin.url, options: .init(limitRate: "1m"))
    try nginx.start()
    defer { nginx.stop() }
    let fixture = try ManagerFixture(parallelDownloads: 1)
    let manager = fixture.manager
    try await manager.start()
    let ids = try await manager.add(
      ["a.bin", "b.bin", "c.bin"].map { OfflineSource(url: nginx.url("/" + $0)) }
    ).map(\.id)
    // `add` started the first (one at a time); the others wait behind it.
    manager.stopLaunching()
    let deadline = Date().addingTimeInterval(20)
    while try await manager.snapshot(id: ids[0]).state != .downloaded, Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(try await manager.snapshot(id: ids[0]).state == .downloaded)
    // Thirty turns of the runner; a download started meanwhile would have bytes recorded
    // (progress reaches the index once a second) or be done.
    try await Task.sleep(for: .milliseconds(1500))
    for id in ids.dropFirst() {
      let waiting = try await manager.snapshot(id: id)
      #expect(waiting.state == .downloading && waiting.bytes == 0, "\(id): \(waiting)")
    }
    try await manager.start()
    for id in ids.dropFirst() {
      while try await manager.snapshot(id: id).state != .downloaded, Date() < deadline {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(try await manager.snapshot(id: id).state == .downloaded)
    }
    await manager.stop(suspendingRunning: true)
  }
}
