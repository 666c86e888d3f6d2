import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A size-limited cache: least recently used out first, down to a lower watermark; offline
/// content pinned, never evicted, never counted.
@Suite(.timed) struct CacheEvictionTests {
  static let mebibyte = 1 << 20

  @Test func aTenMiBLimitKeepsTheCacheUnderItAndTheMostRecentlyUsedFiles() async throws {
    let names = (0..<100).map { "f\($0).bin" }
    let fixture = try CacheFixture(
      files: Dictionary(uniqueKeysWithValues: names.map { ($0, Self.mebibyte) }))
    let cache = try fixture.cache { $0.sizeLimit = 10 << 20 }
    for name in names {
      _ = try await cache.fileURL(for: fixture.url(name))
      let stats = try await cache.statistics()
      #expect(stats.bytes <= 10 << 20, "over the limit after \(name)")
    }
    let kept = try await cache.entries()
    let keptURLs = Set(kept.map(\.url))
    let recent = names.suffix(9).map { fixture.url($0) }

    #expect((9...10).contains(kept.count))  // evicted down to 90 % of 10 MiB, then one more
    #expect(recent.allSatisfy(keptURLs.contains))
    #expect(kept.allSatisfy { FileManager.default.fileExists(atPath: $0.fileURL.path) })
    for url in recent {
      #expect(try await cache.fileURL(for: url).source == .hit)
    }
    #expect(try await fixture.requests(atLeast: 100).count == 100)
  }

  @Test func aRecentlyUsedOldEntrySurvivesEviction() async throws {
    let names = (0..<5).map { "f\($0).bin" }
    let fixture = try CacheFixture(
      files: Dictionary(uniqueKeysWithValues: names.map { ($0, Self.mebibyte) }))
    // Four fit in 4.5 MiB; the watermark (4.05 MiB) still keeps four.
    let cache = try fixture.cache {
      $0.sizeLimit = 4 * Int64(Self.mebibyte) + Int64(Self.mebibyte) / 2
    }
    for name in names.prefix(4) { _ = try await cache.fileURL(for: fixture.url(name)) }
    _ = try await cache.fileURL(for: fixture.url("f0.bin"))  // f1 is now the oldest
    _ = try await cache.fileURL(for: fixture.url("f4.bin"))

    let kept = Set(try await cache.entries().map(\.url))
    #expect(kept.contains(fixture.url("f0.bin")))
    #expect(!kept.contains(fixture.url("f1.bin")))
    #expect(kept.contains(fixture.url("f4.bin")))
  }

  @Test func aHundredThousandEntriesEvictOldestFirstAndKeepTheOneJustUsed() async throws {
    let fixture = try CacheFixture(files: ["real.bin": 4_096])
    let index = try fixture.index()
    let now = Date()
    try index.cache.save(
      (0..<100_000).map { number in
        CacheTable.Entry(
          key: String(repeating: "0", count: 48) + String(format: "%016x", number),
          url: "http://bench.invalid/\(number)", size: 1_000, validatedAt: now,
          lastUsedAt: now.addingTimeInterval(-Double(100_000 - number) - 60))
      })
    let cache = try fixture.cache { $0.sizeLimit = 200_000_000 }
    let loaded = try await cache.fileURL(for: fixture.url("real.bin"))
    try await cache.setSizeLimit(50_000_000)
    let stats = try await cache.statistics()

    #expect(stats.bytes <= 50_000_000)
    #expect(stats.entryCount > 40_000)
    // The oldest went first; the entry just used stayed.
    #expect(try index.cache.entry(key: String(repeating: "0", count: 64)) == nil)
    #expect(try await cache.fileURL(for: fixture.url("real.bin")).source == .hit)
    #expect(loaded.size == 4_096)
  }

  @Test func pinnedContentIsServedFromItsFileNeverCopiedNorCounted() async throws {
    let fixture = try CacheFixture(files: ["movie.bin": 300_000])
    let manager = try OfflineManager(
      directory: fixture.store, configuration: ManagerFixture.configuration())
    let content = try await manager.content(for: OfflineSource(url: fixture.url("movie.bin")))
    try await content.download()
    #expect(try await runUntilIdle(manager))
    let file = try await content.playbackURL()

    let cache = try fixture.cache { $0.sizeLimit = 1_000 }
    let loaded = try await cache.fileURL(for: fixture.url("movie.bin"))
    let data = try await cache.data(for: fixture.url("movie.bin"))

    #expect(loaded.source == .pinned)
    #expect(loaded.value.path == file.path)
    #expect(data.value == fixture.body("movie.bin", size: 300_000))
    let stats = try await cache.statistics()
    #expect(stats.bytes == 0)
    #expect(stats.pinnedBytes == 300_000)
    #expect(try await cache.entries().isEmpty)
    try await cache.setSizeLimit(0)
    #expect(FileManager.default.fileExists(atPath: file.path))
    #expect(try await fixture.requests(atLeast: 1).count == 1)
  }
}
