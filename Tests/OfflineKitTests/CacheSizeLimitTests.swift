import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Which size limit a cache follows: the app's own, else the one saved in the store, else
/// 256 MiB; and the saved one can be forgotten.
@Suite(.timed) struct CacheSizeLimitTests {
  // Pins: a limit saved once (`offline cache limit`) silently overrode a later
  // `Configuration(sizeLimit:)`, with no way to clear it.
  @Test func theAppsOwnLimitWinsOverTheSavedOne() async throws {
    let fixture = try CacheFixture(files: [:])
    let first = try fixture.cache()
    try await first.setSizeLimit(1 << 20)
    let reader = try fixture.cache()
    let saved = await reader.sizeLimit
    #expect(saved == 1 << 20)
    let chooser = try fixture.cache { $0.sizeLimit = 8 << 20 }
    let own = await chooser.sizeLimit
    #expect(own == 8 << 20)
  }

  @Test func forgettingTheSavedLimitGoesBackToTheDefault() async throws {
    let fixture = try CacheFixture(files: [:])
    let cache = try fixture.cache()
    try await cache.setSizeLimit(1 << 20)
    try await cache.setSizeLimit(nil)
    #expect(await cache.sizeLimit == FileCache.Configuration.defaultSizeLimit)
    let again = try fixture.cache()
    let reopened = await again.sizeLimit
    #expect(reopened == FileCache.Configuration.defaultSizeLimit)
  }
}
