/// The contents waiting for disk space, and when each is looked at again.
///
/// The runner's turn comes four times a second; a content that waits for space is looked at
/// again only after a delay that doubles from ``firstDelay`` to ``longestDelay``, so a full
/// disk is polled calmly. A content whose download ran out of space while the check said it
/// fitted (its size unknown, or the disk filling from elsewhere) goes on only once more
/// space is available than when it ran out, so it does not start, fail and wait again and
/// again. A value: the manager owns it, and it does no I/O.
struct StorageWaits: Sendable {
  /// The delay before a content that waits for space is looked at the first time again.
  static let firstDelay: Duration = .milliseconds(250)
  /// The longest delay between two looks.
  static let longestDelay: Duration = .seconds(4)

  private struct Entry {
    var delay: Duration
    var next: ContinuousClock.Instant
    /// The space available when its download last ran out of it.
    var availableWhenFull: Int64?
    /// Whether it was started since it last waited.
    var launched = false
  }

  private var entries: [String: Entry] = [:]

  /// Whether `id`'s space is due to be looked at (always, when it is not waiting).
  func isDue(_ id: String, at now: ContinuousClock.Instant) -> Bool {
    guard let entry = entries[id] else { return true }
    return entry.launched || entry.next <= now
  }

  /// Notes that `id` was found without enough space; it is looked at again after a longer
  /// delay than last time.
  mutating func postpone(_ id: String, at now: ContinuousClock.Instant) {
    var entry = entries[id] ?? Entry(delay: Self.firstDelay / 2, next: now)
    entry.delay = min(entry.delay * 2, Self.longestDelay)
    entry.next = now + entry.delay
    entry.launched = false
    entries[id] = entry
  }

  /// Notes that the download of `id` ran out of space with `available` bytes left, after it
  /// was started: it goes on only once more is available.
  mutating func ranOut(_ id: String, available: Int64, at now: ContinuousClock.Instant) {
    postpone(id, at: now)
    entries[id]?.availableWhenFull = available
  }

  /// Whether `id` ran out of space with at least `available` bytes left, so starting it
  /// again now would only run out again.
  func stillFull(_ id: String, available: Int64) -> Bool {
    guard let full = entries[id]?.availableWhenFull else { return false }
    return available <= full
  }

  /// Whether `id` was started after a wait and is now waiting for space again, which means
  /// its download ran out of it.
  func wasLaunched(_ id: String) -> Bool {
    entries[id]?.launched ?? false
  }

  /// Notes that `id` starts; a delay from an earlier wait is kept in case it runs out of
  /// space again.
  mutating func launch(_ id: String, at now: ContinuousClock.Instant) {
    entries[id, default: Entry(delay: Self.firstDelay / 2, next: now)].launched = true
  }

  /// Forgets `id` (it finished, failed, or left the queue).
  mutating func end(_ id: String) {
    entries[id] = nil
  }

  /// Forgets every content not in `keep`.
  mutating func keepOnly(_ keep: Set<String>) {
    entries = entries.filter { keep.contains($0.key) }
  }
}
