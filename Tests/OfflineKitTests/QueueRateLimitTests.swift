import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The queue's cap kept in the store (`offline limit`, issue 13, item 5) reaches a runner in
/// another process as a pause does. Before, a running queue's cap could change only in the
/// process that ran it (`setRateLimit`).
@Suite(.serialized, .timed) struct QueueRateLimitTests {
  /// Pins: nothing another process did could change a running queue's cap.
  @Test func aCapKeptByAnotherProcessReachesTheRunningRunner() async throws {
    let fixture = try ManagerFixture()
    try await fixture.manager.start()
    #expect(fixture.manager.rateLimit == nil)
    let other = try fixture.reopened()  // as `offline limit` in another terminal opens it
    try await other.setRateLimit(ByteRate(bytesPerSecond: 100 << 10), keep: true)
    #expect(
      await eventually(timeout: .seconds(5)) {
        fixture.manager.rateLimit == ByteRate(bytesPerSecond: 100 << 10)
      })
    try await other.setRateLimit(nil, keep: true)
    #expect(await eventually(timeout: .seconds(5)) { fixture.manager.rateLimit == nil })
    await fixture.manager.close()
    await other.close()
  }

  /// A kept cap is where a later runner starts, unless its configuration gives one.
  @Test func aLaterRunnerStartsWithTheKeptCapUnlessItGivesItsOwn() async throws {
    let fixture = try ManagerFixture()
    try await fixture.manager.setRateLimit(ByteRate(bytesPerSecond: 300 << 10), keep: true)
    #expect(
      try await fixture.manager.keptRateLimit() == .limited(ByteRate(bytesPerSecond: 300 << 10)))
    await fixture.manager.close()

    let runner = try fixture.reopened()
    try await runner.start()
    #expect(runner.rateLimit == ByteRate(bytesPerSecond: 300 << 10))
    await runner.close()

    var configuration = ManagerFixture.configuration()
    configuration.rateLimit = ByteRate(bytesPerSecond: 1 << 20)
    let own = try OfflineManager(directory: fixture.store, configuration: configuration)
    try await own.start()
    #expect(own.rateLimit == ByteRate(bytesPerSecond: 1 << 20))
    await own.close()
  }
}
