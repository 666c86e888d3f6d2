import Foundation

/// Files whose transfers finished without a per-file fsync, waiting to be recorded
/// `downloaded` together: one `syncfs` makes all their bytes and renames durable, then one
/// transaction records them (group commit). Nothing in it is `downloaded` yet: a crash
/// before the commit leaves them `downloading`, and their next run finds each file complete
/// in the journal (same boot) or downloads it again (after a power cut).
///
/// A value held by the manager actor; ``OfflineManager`` carries out the flush.
struct FinishedBatch {
  /// A finished transfer waiting for the sync.
  struct Entry {
    /// The content.
    let id: String
    /// What its transfer reported.
    let outcome: Transfer.Outcome
  }

  /// Finished files at which the batch is flushed at once, whatever else still runs.
  static let largest = 64

  private(set) var entries: [Entry] = []

  /// Whether nothing waits.
  var isEmpty: Bool { entries.isEmpty }

  /// Whether the batch should be flushed now rather than at the next turn of the runner:
  /// it is full, or nothing else is running that could join it.
  func isDue(running: Int) -> Bool {
    !entries.isEmpty && (entries.count >= Self.largest || running == 0)
  }

  /// Adds the transfer of `id` that finished with `outcome`.
  mutating func add(_ id: String, _ outcome: Transfer.Outcome) {
    entries.append(Entry(id: id, outcome: outcome))
  }

  /// The contents waiting in the batch.
  var ids: Set<String> { Set(entries.map(\.id)) }

  /// Whether `id` waits in the batch.
  func contains(_ id: String) -> Bool {
    entries.contains { $0.id == id }
  }

  /// Takes every entry out, oldest first.
  mutating func take() -> [Entry] {
    defer { entries = [] }
    return entries
  }
}
