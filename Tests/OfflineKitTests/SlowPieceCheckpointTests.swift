import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// How much of a slow download a kill can cost. The journal is checkpointed once a second
/// (``Transfer/Configuration/checkpointInterval``) whatever the pace of the body.
@Suite(.timed) struct SlowPieceCheckpointTests {
  /// Pins issue 14's kill cost: the sink read the clock only every 32 body parts, so a slow
  /// piece (a segment at 20 KB/s arrives in about 20 parts a second) had nothing on disk
  /// after more than a second, and a kill then cost all of it. More pieces in flight made
  /// every kill cost more.
  @Test func aSlowDownloadIsCheckpointedWithinAboutASecondOfItsFirstBytes() async throws {
    let body = TestData.bytes(count: 200_000, seed: 31)
    let server = try FaultServer()
    // 1,000 bytes a send, 20 sends a second; 24 sends (1.2 s) and then a pause.
    server.setRoute(
      "/slow",
      .resource(
        .init(
          body: body,
          faults: .init(stallAfterBodyBytes: 24_000, stallSeconds: 8, bytesPerSecond: 20_000))))
    let fixture = try TransferFixture()
    let destination = fixture.destination()
    let running = Task { try await fixture.transfer(server.url("/slow")).run() }
    defer { running.cancel() }

    var durable: Int64 = 0
    for _ in 0..<100 where durable == 0 {
      try await Task.sleep(for: .milliseconds(50))
      durable =
        try fixture.index.transfers.record(forDestination: destination)?
        .durableOffset ?? 0
    }
    #expect(durable > 0, "nothing of the first 24,000 bytes was checkpointed within 5 s")
    #expect(durable <= 24_000)
    let onDisk = FileSteps.regularFileSize(destination + ".part") ?? 0
    #expect(onDisk >= durable, "the journal never runs ahead of the bytes on disk")
  }
}
