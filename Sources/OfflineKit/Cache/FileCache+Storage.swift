import Foundation
import OfflineStore

extension FileCache {
  /// Checks the storage policy before a download of `size` bytes (nil when unknown) and
  /// returns the most bytes the download may take, nil for no bound.
  ///
  /// Refuses a file larger than the cache's size limit, and refuses when the disk would keep
  /// less than the minimum free space, or when offline content alone leaves no room under
  /// the store quota (the cache can evict its own entries, not content).
  func room(for size: Int64?) throws(FileCache.Error) -> Int64? {
    if let size, size > sizeLimit { throw Error(.largerThanLimit(size: size, limit: sizeLimit)) }
    var allowance: Int64? = sizeLimit
    if let available = StorageSpace.available(at: directory.path) {
      let free = available - configuration.minimumFreeSpace
      guard free > (size ?? 0) else {
        throw Error(.insufficientSpace(needed: size ?? 0, available: available))
      }
      allowance = min(allowance ?? free, free)
    }
    if let quota = configuration.storeQuota {
      let pinned = try indexCall { () throws(StoreError) in
        try index.cache.storeUsage().contentBytes
      }
      let left = quota - pinned
      guard left > (size ?? 0) else {
        throw Error(.quotaExceeded(quota: quota, needed: size ?? 0, pinned: pinned))
      }
      allowance = min(allowance ?? left, left)
    }
    return allowance
  }

  /// The error for a download of `needed` bytes that the policy does not allow.
  func refusal(needed: Int64) -> FileCache.Error {
    do {
      _ = try room(for: needed)
    } catch {
      return error
    }
    return Error(.insufficientSpace(needed: needed, available: needed - 1))
  }
}
