// Written for Apple platforms, not compiled in our CI.
#if canImport(Darwin)
  import Foundation

  extension StorageSpace {
    /// The volume's capacity for important downloads (what iOS frees purgeable space for)
    /// and its total capacity, from `URLResourceValues`.
    static func read(at path: String) -> StorageSpace? {
      let keys: Set<URLResourceKey> = [
        .volumeAvailableCapacityForImportantUsageKey, .volumeTotalCapacityKey,
      ]
      guard let values = try? URL(fileURLWithPath: path).resourceValues(forKeys: keys),
        let available = values.volumeAvailableCapacityForImportantUsage,
        let total = values.volumeTotalCapacity
      else { return nil }
      return StorageSpace(available: available, capacity: Int64(total))
    }
  }
#endif
