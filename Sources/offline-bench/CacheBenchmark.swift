import Foundation
import OfflineKit
import OfflineLocks
import OfflineStore

/// What `benchmarks/cache-hit.sh` measures of the cache: cached reads timed against reading
/// the same file directly, and hits and eviction with many entries in the index. Each
/// returns one JSON object.
enum CacheBenchmark {
  /// Which measurement, and how much of it.
  struct Settings {
    var count = 2000
    var rounds = 5
    var entries = 100_000
  }

  /// Downloads `url` into the cache of `store` once, then runs `name` (`cache-hit` or
  /// `cache-index`) and returns its JSON line.
  static func run(_ name: String, url: URL, store: URL, settings: Settings)
    async throws(FileCache.Error) -> String
  {
    let cache = try FileCache(store: store)
    let first = try await cache.fileURL(for: url)
    if name == "cache-hit" {
      return try await hits(url, file: first.value, command: settings, cache: cache)
    }
    return try await index(url, command: settings, store: cache.store)
  }

  /// Interleaved rounds of `count` cached `data(for:)` calls and `count` `Data(contentsOf:)`
  /// reads of the same file; medians of the per-call times.
  private static func hits(_ url: URL, file: URL, command: Settings, cache: FileCache)
    async throws(FileCache.Error) -> String
  {
    var cached: [Double] = []
    var direct: [Double] = []
    var size = 0
    for round in 0..<command.rounds {
      for step in 0..<2 {
        let start = ContinuousClock.now
        if (round + step) % 2 == 0 {
          for _ in 0..<command.count {
            let loaded = try await cache.data(for: url)
            size = loaded.value.count
            guard loaded.source == .hit else { throw FileCache.Error(.invalidURL("not a hit")) }
          }
          cached.append(micros(ContinuousClock.now - start) / Double(command.count))
        } else {
          for _ in 0..<command.count { size = (try? Data(contentsOf: file))?.count ?? 0 }
          direct.append(micros(ContinuousClock.now - start) / Double(command.count))
        }
      }
    }
    let ratio = median(cached) / max(median(direct), 0.001)
    return
      "{\"bench\":\"cache-hit\",\"bytes\":\(size),\"count\":\(command.count),"
      + "\"rounds\":\(command.rounds),\"cachedMicros\":\(rounded(median(cached))),"
      + "\"directMicros\":\(rounded(median(direct))),\"ratio\":\(rounded(ratio)),"
      + "\"cachedRounds\":\(cached.map(rounded)),\"directRounds\":\(direct.map(rounded))}"
  }

  /// Seeds `entries` synthetic entries (older than the real one), then times a cold hit, warm
  /// hits, and an eviction pass that removes a tenth of the cache.
  private static func index(_ url: URL, command: Settings, store: URL)
    async throws(FileCache.Error) -> String
  {
    let seeded: Duration
    do {
      let index = try OfflineIndex(directory: store)
      let now = Date()
      let batch = (0..<command.entries).map { number in
        CacheTable.Entry(
          key: String(repeating: "0", count: 48) + String(format: "%016x", number),
          url: "http://bench.invalid/\(number)", size: 1024, validatedAt: now,
          lastUsedAt: now.addingTimeInterval(-Double(command.entries - number) - 60))
      }
      let start = ContinuousClock.now
      try index.cache.save(batch)
      seeded = ContinuousClock.now - start
    } catch {
      throw FileCache.Error(.index(error))
    }
    let cache = try FileCache(store: store)
    var start = ContinuousClock.now
    _ = try await cache.data(for: url)
    let cold = ContinuousClock.now - start
    start = ContinuousClock.now
    for _ in 0..<command.count { _ = try await cache.data(for: url) }
    let warm = micros(ContinuousClock.now - start) / Double(command.count)
    let before = try await cache.statistics()
    start = ContinuousClock.now
    try await cache.setSizeLimit(before.bytes - before.bytes / 10)
    let eviction = ContinuousClock.now - start
    let after = try await cache.statistics()
    return
      "{\"bench\":\"cache-index\",\"entries\":\(before.entryCount),"
      + "\"seedMillis\":\(rounded(micros(seeded) / 1000)),"
      + "\"coldHitMicros\":\(rounded(micros(cold))),\"warmHitMicros\":\(rounded(warm)),"
      + "\"evicted\":\(before.entryCount - after.entryCount),"
      + "\"evictionMillis\":\(rounded(micros(eviction) / 1000))}"
  }

  private static func micros(_ duration: Duration) -> Double {
    duration.inSeconds * 1e6
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }

  private static func rounded(_ value: Double) -> Double {
    (value * 100).rounded() / 100
  }
}
