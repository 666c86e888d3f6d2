import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The clock seam below the manager: a transfer's retry delay and a cache entry's age are
/// read on the clock of their configuration, so a manual clock drives them without a real
/// wait.
@Suite(.timed) struct ClockSeamTests {
  /// Clocks compare by identity: two configurations on the system clock are equal, one on
  /// another clock is not (``Transfer/Configuration`` stays `Equatable`).
  @Test func transferConfigurationsCompareTheirClocksByIdentity() {
    let clock = ManualClock()
    var manual = Transfer.Configuration()
    manual.clock = clock
    var same = Transfer.Configuration()
    same.clock = clock
    #expect(Transfer.Configuration() == Transfer.Configuration())
    #expect(manual == same)
    #expect(manual != Transfer.Configuration())
    var other = Transfer.Configuration()
    other.clock = ManualClock()
    #expect(manual != other)
  }

  /// A transfer whose origin is down waits its backoff (30 s here, give or take its
  /// jitter) on its clock, and goes on once the test moves the clock past it.
  @Test func aTransferWaitsItsRetryDelayOnItsClock() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-www")
    let body = TestData.bytes(count: 200_000, seed: 71)
    try body.write(to: root.file("file.bin"))
    let nginx = try NginxServer(root: root.url)
    try nginx.start()
    nginx.stop(graceful: false)
    let fixture = try TransferFixture()
    let clock = ManualClock()
    var configuration = Transfer.Configuration(
      retry: RetryPolicy(
        maximumAttempts: 3, initialDelay: .seconds(30), maximumDelay: .seconds(60)))
    configuration.clock = clock
    let running = Task {
      try await fixture.transfer(nginx.url("/file.bin"), configuration: configuration).run()
    }
    // The first attempt was refused; the retry sleeps 22.5 to 37.5 s of the clock's time.
    try await clock.waitForSleepers { sleepers in
      sleepers.contains { $0 >= .milliseconds(22_500) && $0 <= .milliseconds(37_500) }
    }
    try nginx.start()
    clock.advance(by: .seconds(38))
    let outcome = try await running.value
    #expect(outcome.length == Int64(body.count))
    #expect(FileManager.default.contents(atPath: fixture.destination()) == body)
  }

  /// An entry is fresh until its maximum age has passed on the cache's clock, then it is
  /// revalidated (a 304): before, only a maximum age of zero could be tested without
  /// waiting for it.
  @Test func aCacheEntryTurnsStaleWhenItsClockPassesTheMaximumAge() async throws {
    let fixture = try CacheFixture(files: ["feed.json": 5_000])
    let clock = ManualClock()
    let cache = try fixture.cache {
      $0.maximumAge = .seconds(3600)
      $0.clock = clock
    }
    let url = fixture.url("feed.json")
    #expect(try await cache.data(for: url).source == .downloaded)
    clock.advance(by: .seconds(3540))
    #expect(try await cache.data(for: url).source == .hit)
    clock.advance(by: .seconds(120))
    let stale = try await cache.data(for: url)
    #expect(stale.source == .revalidated)
    #expect(stale.value == fixture.body("feed.json", size: 5_000))
    #expect(try await fixture.requests(atLeast: 2).map(\.status) == [200, 304])
  }
}
