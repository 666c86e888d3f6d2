import Foundation
import OfflineLocks
import OfflineStore

extension FileCache {
  /// Last uses are written in batches of this many, or after ``useFlushInterval``.
  static let useBatchSize = 256
  /// The longest a last use waits in memory before it is written.
  static let useFlushInterval: Duration = .seconds(5)
  /// Entries remembered in memory; past this the memory starts over (the index has them).
  static let knownLimit = 8192

  /// The entry for `hash`: from memory, else from the index.
  func entry(for hash: String) -> CacheTable.Entry? {
    if let entry = known[hash] { return entry }
    guard let entry = try? index.cache.entry(key: hash) else { return nil }
    if known.count >= Self.knownLimit { known.removeAll(keepingCapacity: true) }
    known[hash] = entry
    return entry
  }

  /// Notes a use in memory; the index hears of it with the next batch.
  func noteUse(_ hash: String) {
    let now = configuration.clock.now
    pendingUses[hash] = now
    known[hash]?.lastUsedAt = now
    if let entry = known[hash] {
      hot.set(
        hash,
        HitTable.Hot(
          path: CacheKey.path(of: hash, in: directoryPath), size: entry.size,
          staleAt: freshUntil(entry)))
    }
    if pendingUses.count >= Self.useBatchSize
      || ContinuousClock.now - lastUseFlush >= Self.useFlushInterval
    {
      flushUsage()
    }
  }

  /// The maximum age in seconds.
  nonisolated var maximumAgeSeconds: Double {
    configuration.maximumAge.inSeconds
  }

  /// Writes the last uses noted since the previous batch to the index, in one transaction.
  /// The cache does it by itself every few hundred uses or seconds, and before evicting;
  /// call it when the app goes to the background.
  public func flushUsage() {
    lastUseFlush = ContinuousClock.now
    var uses = pendingUses
    pendingUses = [:]
    let taken = hot.takeUses(batch: 1, interval: .zero, force: true) ?? [:]
    uses.merge(taken) { max($0, $1) }
    for (hash, date) in taken { known[hash]?.lastUsedAt = date }
    guard !uses.isEmpty else { return }
    try? index.cache.recordUses(uses)
  }

  /// Records `entry` (new or refreshed), then keeps the cache within its limit and the
  /// store within its quota, never evicting `entry` itself to do so.
  func store(_ entry: CacheTable.Entry) throws(FileCache.Error) {
    // Pins: `cache limit 1K` kept a 1 MB entry ("976.6 KiB of 1.0 KiB"), since the entry
    // being stored is never evicted.
    guard entry.size <= sizeLimit else {
      discard(entry.key)
      throw Error(.largerThanLimit(size: entry.size, limit: sizeLimit))
    }
    let previous = self.entry(for: entry.key)
    try indexCall { () throws(StoreError) in try index.cache.save(entry) }
    known[entry.key] = entry
    noteUse(entry.key)
    totalBytes += entry.size - (previous?.size ?? 0)
    let pinned = try quotaRoom()
    if let pinned, let quota = configuration.storeQuota, pinned + entry.size > quota {
      discard(entry.key)
      throw Error(.quotaExceeded(quota: quota, needed: entry.size, pinned: pinned))
    }
    var limit = sizeLimit
    if let pinned, let quota = configuration.storeQuota { limit = min(limit, quota - pinned) }
    try evict(above: limit, protecting: entry.key)
  }

  /// Content bytes when there is a quota (they leave the rest to the cache), else nil.
  private func quotaRoom() throws(FileCache.Error) -> Int64? {
    guard configuration.storeQuota != nil else { return nil }
    return try indexCall { () throws(StoreError) in try index.cache.storeUsage().contentBytes }
  }

  /// When the cache holds more than `limit` bytes, deletes entries least recently used
  /// first until it holds at most the low watermark of `limit`.
  func evict(above limit: Int64, protecting protected: String? = nil) throws(FileCache.Error) {
    guard totalBytes > limit else { return }
    flushUsage()
    totalBytes = try indexCall { () throws(StoreError) in try index.cache.totals().bytes }
    let target = Int64(Double(max(0, limit)) * configuration.lowWatermark)
    while totalBytes > target {
      let oldest = try indexCall { () throws(StoreError) in
        try index.cache.leastRecentlyUsed(limit: 128, excluding: protected)
      }
      guard !oldest.isEmpty else { return }
      var victims: [String] = []
      for entry in oldest where totalBytes > target && inFlight[entry.key] == nil {
        victims.append(entry.key)
        totalBytes -= entry.size
      }
      guard !victims.isEmpty else { return }  // all being refreshed: next time
      try indexCall { () throws(StoreError) in try index.cache.remove(keys: victims) }
      for hash in victims { removeFiles(of: hash) }
    }
  }

  /// Forgets the entry for `hash` and deletes its file; a damaged or missing file ends here.
  func discard(_ hash: String) {
    if let entry = entry(for: hash) { totalBytes -= entry.size }
    try? index.cache.remove(keys: [hash])
    removeFiles(of: hash)
  }

  /// Deletes the entry's file and any partial download of it, and forgets it in memory.
  func removeFiles(of hash: String) {
    hot.set(hash, nil)
    known[hash] = nil
    pendingUses[hash] = nil
    let path = CacheKey.path(of: hash, in: directoryPath)
    CacheFiles.remove(path)
    CacheFiles.remove(path + ".fetch")
    if CacheFiles.size(path + ".part") != nil {
      CacheFiles.remove(path + ".part")
      try? index.transfers.remove(destination: path)
    }
  }

  func indexCall<T>(_ body: () throws(StoreError) -> T) throws(FileCache.Error) -> T {
    do {
      return try body()
    } catch {
      throw Error(.index(error))
    }
  }
}
