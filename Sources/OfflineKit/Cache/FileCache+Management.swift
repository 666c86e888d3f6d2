import Foundation
import HexDigits
import OfflineStore

extension FileCache {
  /// Every entry, most recently used first.
  public func entries() throws(FileCache.Error) -> [Entry] {
    flushUsage()
    let now = configuration.clock.now
    return try indexCall { () throws(StoreError) in try index.cache.all() }.map { entry in
      Entry(
        url: URL(string: entry.url) ?? directory, key: entry.key,
        fileURL: URL(fileURLWithPath: CacheKey.path(of: entry.key, in: directoryPath)),
        size: entry.size, validatedAt: entry.validatedAt, lastUsedAt: entry.lastUsedAt,
        isStale: isStale(entry, now: now))
    }
  }

  /// The cache's size and limit, and what the store around it holds.
  public func statistics() throws(FileCache.Error) -> Statistics {
    let totals = try indexCall { () throws(StoreError) in try index.cache.totals() }
    let usage = try indexCall { () throws(StoreError) in try index.cache.storeUsage() }
    totalBytes = totals.bytes
    return Statistics(
      entryCount: totals.count, bytes: totals.bytes, sizeLimit: sizeLimit,
      pinnedBytes: usage.contentBytes, storeQuota: configuration.storeQuota,
      availableBytes: StorageSpace.available(at: directory.path))
  }

  /// Sets the size limit and saves it in the store, so every process that opens the
  /// store's cache without a limit of its own uses it; evicts at once down to it. Nil
  /// forgets the saved limit: this cache goes back to its configuration's, or 256 MiB.
  public func setSizeLimit(_ bytes: Int64?) throws(FileCache.Error) {
    let saved = bytes.map { max(0, $0) }
    try indexCall { () throws(StoreError) in try index.cache.setStoredSizeLimit(saved) }
    let limit = saved ?? configuration.sizeLimit ?? Configuration.defaultSizeLimit
    sizeLimit = limit
    try evict(above: limit)
  }

  /// Removes the entry for `url` (or for `key`), if there is one. Pinned content is not
  /// touched.
  public func remove(_ url: URL, key: String? = nil) throws(FileCache.Error) {
    discard(try CacheKey(url: url, custom: key).hash)
  }

  /// Removes every entry and its file, and any partial download in the cache folder.
  /// Pinned content is not touched. Downloads running now finish and are kept.
  ///
  /// - Returns: How many entries were removed.
  @discardableResult
  public func removeAll() throws(FileCache.Error) -> Int {
    flushUsage()
    let all = try indexCall { () throws(StoreError) in try index.cache.all() }
    let keys = all.map(\.key).filter { inFlight[$0] == nil }
    try indexCall { () throws(StoreError) in try index.cache.remove(keys: keys) }
    for hash in keys { removeFiles(of: hash) }
    removeLeftovers()
    totalBytes = try indexCall { () throws(StoreError) in try index.cache.totals().bytes }
    return keys.count
  }

  /// Deletes partial downloads without an entry (a download stopped by a full disk, say).
  /// Only names the cache makes are touched: 64 hex digits, with `.part` or `.fetch`.
  private func removeLeftovers() {
    let manager = FileManager.default
    guard let shards = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
    for shard in shards where ASCIIHex.isDigits(shard, count: 2) {
      let folder = directory.appending(path: shard, directoryHint: .isDirectory)
      for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
        let base = name.split(separator: ".").first.map(String.init) ?? name
        guard ASCIIHex.isDigits(base, count: 64), inFlight[base] == nil,
          known[base] == nil, name.hasSuffix(".part") || name.hasSuffix(".fetch")
        else { continue }
        removeFiles(of: base)
      }
    }
  }
}
