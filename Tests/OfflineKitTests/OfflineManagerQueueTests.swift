import Foundation
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The queue: how many downloads run at once, and which goes first. The origin is scripted:
/// a response held at a gate keeps a download running for as long as the test looks.
@Suite(.timed) struct OfflineManagerQueueTests {
  @Test func pastTheParallelLimitAContentWaitsQueued() async throws {
    let origin = ScriptedOrigin(files: ["a.bin": 4 << 20, "b.bin": 4 << 20])
    let gate = origin.holding("a.bin")
    defer { gate.open() }
    let fixture = try origin.fixture(parallelDownloads: 1)
    let manager = fixture.manager
    let first = try await manager.content(for: OfflineSource(url: origin.url("a.bin"), id: "a"))
    let second = try await manager.content(for: OfflineSource(url: origin.url("b.bin"), id: "b"))
    let recorder = EventRecorder(first.events)
    try await first.download()
    try await second.download()
    try await fixture.running {
      #expect(await gate.reached())
      #expect(await recorder.waitFor { ($0.progressBytes ?? 0) > 0 })
      let waiting = try await second.snapshot
      #expect(waiting.state == .downloading)
      #expect(waiting.waitReason == .queued)
      #expect(waiting.bytes == 0)
      #expect(try await first.snapshot.waitReason == nil)
      #expect(
        !FileManager.default.fileExists(atPath: fixture.file("b.bin.part", of: "b").path))
      #expect(origin.requested.map(\.path) == ["/a.bin"])
    }
  }

  @Test func aHigherPriorityContentQueuedLaterStartsFirst() async throws {
    let origin = ScriptedOrigin(files: ["low.bin": 256 << 10, "high.bin": 256 << 10])
    let fixture = try origin.fixture(parallelDownloads: 1)
    let manager = fixture.manager
    let low = try await manager.content(for: OfflineSource(url: origin.url("low.bin"), id: "low"))
    let high = try await manager.content(
      for: OfflineSource(url: origin.url("high.bin"), id: "high"))
    let finished = Locked<[String]>([])
    let all = manager.allEvents()
    let listener = Task {
      for await (id, event) in all where event.name == "finished" {
        finished.withLock { $0.append(id) }
      }
    }
    defer { listener.cancel() }
    try await low.download()
    try await high.download(DownloadConfiguration(priority: 5))
    try await fixture.running {
      #expect(await eventually { finished.withLock { $0.count } == 2 })
    }
    // The order they start in is the promise (one at a time here, so low's request comes
    // only once high's transfer ended). Not the order of their `finished` events: each
    // file's batch is recorded after its own syncs (group commit), and a busy disk can
    // end a later batch's sync first (seen: ["low", "high"] under load).
    #expect(origin.requested.map(\.path) == ["/high.bin", "/low.bin"])
    #expect(Set(finished.withLock { $0 }) == ["high", "low"])
  }

  /// Pins a bug: `DownloadConfiguration.priority` promises that equal priorities run in the order
  /// they were queued, but the queue orders them by when the contents were created.
  @Test func equalPrioritiesRunInTheOrderTheyWereQueued() async throws {
    let origin = ScriptedOrigin(files: ["first.bin": 256 << 10, "second.bin": 256 << 10])
    let fixture = try origin.fixture(parallelDownloads: 1)
    let manager = fixture.manager
    let created = try await manager.content(
      for: OfflineSource(url: origin.url("first.bin"), id: "created-first"))
    let queued = try await manager.content(
      for: OfflineSource(url: origin.url("second.bin"), id: "queued-first"))
    try await queued.download()
    try await created.download()
    let done = try await fixture.running {
      try await eventually { try await created.state == .downloaded }
    }
    #expect(done)
    #expect(origin.requested.map(\.path) == ["/second.bin", "/first.bin"])
  }
}
