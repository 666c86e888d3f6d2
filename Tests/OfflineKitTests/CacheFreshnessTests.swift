import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Entries older than their maximum age are revalidated; offline, a stale copy is served.
@Suite(.timed) struct CacheFreshnessTests {
  @Test func aStaleEntryRevalidatesWithA304AndNoBody() async throws {
    let fixture = try CacheFixture(files: ["feed.json": 50_000])
    let cache = try fixture.cache { $0.maximumAge = .zero }
    let url = fixture.url("feed.json")
    let first = try await cache.data(for: url)
    let second = try await cache.data(for: url)

    #expect(first.source == .downloaded)
    #expect(second.source == .revalidated)
    #expect(second.value == fixture.body("feed.json", size: 50_000))
    let log = try await fixture.requests(atLeast: 2)
    #expect(log.map(\.status) == [200, 304])
    #expect(log.last?.bodyBytesSent == 0)
  }

  @Test func aRevalidatedEntryIsFreshAgain() async throws {
    let fixture = try CacheFixture(files: ["feed.json": 1_000])
    let url = fixture.url("feed.json")
    _ = try await fixture.cache { $0.maximumAge = .zero }.data(for: url)
    let revalidated = try await fixture.cache { $0.maximumAge = .zero }.data(for: url)
    let fresh = try await fixture.cache { $0.maximumAge = .seconds(3600) }.data(for: url)

    #expect(revalidated.source == .revalidated)
    #expect(fresh.source == .hit)
    #expect(try await fixture.requests(atLeast: 2).count == 2)
  }

  @Test func aChangedFileIsDownloadedAgainOnRevalidation() async throws {
    let fixture = try CacheFixture(files: ["feed.json": 1_000])
    let cache = try fixture.cache { $0.maximumAge = .zero }
    let url = fixture.url("feed.json")
    _ = try await cache.data(for: url)
    try fixture.serve("feed.json", size: 2_000, seed: 99)  // new length, so a new ETag
    let changed = try await cache.data(for: url)

    #expect(changed.source == .downloaded)
    #expect(changed.value == TestData.bytes(count: 2_000, seed: 99))
    #expect(try await fixture.requests(atLeast: 2).map(\.status) == [200, 200])
    #expect(try await cache.statistics().bytes == 2_000)
  }

  @Test func aStaleEntryIsServedWhenTheNetworkIsUnreachable() async throws {
    let fixture = try CacheFixture(files: ["feed.json": 1_000])
    let cache = try fixture.cache { $0.maximumAge = .zero }
    let url = fixture.url("feed.json")
    _ = try await cache.data(for: url)
    fixture.nginx.stop(graceful: false)
    let stale = try await cache.data(for: url)

    #expect(stale.source == .staleOffline)
    #expect(stale.isStale)
    #expect(stale.value == fixture.body("feed.json", size: 1_000))
  }

  @Test func aMissWhileOfflineIsANetworkError() async throws {
    let fixture = try CacheFixture(files: ["feed.json": 1_000])
    fixture.nginx.stop(graceful: false)
    let cache = try fixture.cache()
    do {
      _ = try await cache.data(for: fixture.url("feed.json"))
      Issue.record("a miss was served offline")
    } catch {
      guard case .transfer(let failure) = error.kind, case .network = failure.kind else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }
}
