import Synchronization

/// Makes written bytes survive a power cut: the one seam for every flush to the device.
///
/// The calls are the platform's (`Durability+Linux.swift`, `Durability+Darwin.swift`): on
/// Linux `fsync(2)` and `syncfs(2)`; on Apple platforms `fsync` does not flush the drive's
/// cache, so `F_FULLFSYNC` is used.
enum Durability {
  /// How many flushes this process has asked for through the seam (every call of `sync`,
  /// `syncData` and `syncFileSystem`): what durability costs, for tests and profiles.
  private static let flushCount = Atomic<Int>(0)

  /// The current value of the count of flushes.
  static var flushes: Int { flushCount.load(ordering: .relaxed) }

  /// Counts one flush; called by every platform's flush.
  static func countFlush() {
    flushCount.add(1, ordering: .relaxed)
  }
}
