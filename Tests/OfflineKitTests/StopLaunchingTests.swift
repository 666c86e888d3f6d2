import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// `OfflineManager.stopLaunching()`, the hook `offline serve` shuts down with (issue 36,
/// item 10).
@Suite("stopLaunching starts nothing more", .serialized, .timed)
struct StopLaunchingTests {
  // Pins: while the manager stopped its running downloads, one that ended pumped the queue
  // and started the next, which nobody stopped: `serve` exited with transfers running.
  // Once launches are stopped, a download that ends starts nothing; `start()` goes on.
  // The first download's response is held at a gate (a scripted origin) until launches
  // are stopped, so it ends after `stopLaunching()` whatever the machine's speed.
  @Test func aDownloadThatEndsStartsNothingOnceLaunchesAreStopped() async throws {
    let names = ["a.bin", "b.bin", "c.bin"]
    let origin = ScriptedOrigin(
      files: Dictionary(uniqueKeysWithValues: names.map { ($0, 1_500_000) }))
    let gate = origin.holding("a.bin")
    defer { gate.open() }
    let fixture = try origin.fixture(parallelDownloads: 1)
    let manager = fixture.manager
    try await manager.start()
    let ids = try await manager.add(names.map { OfflineSource(url: origin.url($0)) }).map(\.id)
    // `add` started the first (one at a time); the others wait behind it.
    #expect(await gate.reached())
    manager.stopLaunching()
    gate.open()
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
    #expect(origin.requested.map(\.path) == ["/a.bin"], "nothing else was requested")
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
