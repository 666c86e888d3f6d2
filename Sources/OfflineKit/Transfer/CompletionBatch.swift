import OfflineLocks
import OfflineStore

/// The `complete` journal records of finished transfers that are not synced one by one (the
/// pieces of a stream, the files of the queue), written many in one transaction instead of
/// one commit each.
///
/// Such a transfer writes the record of its response (phase `active`, with its length)
/// before it renames its part into place. Within the same boot that record alone lets the
/// next run take a renamed file of that length as finished (see
/// ``Transfer/completedEarlier(onEvent:)``), so the `complete` record that follows may wait
/// without a crash costing a refetch: a record lost with the process only means the next run
/// records the file complete itself, and the digests of the content's `pieces` table are
/// hashed from the file instead of taken from the journal. The journal therefore never claims
/// more than the files hold; it lags behind them by at most ``limit`` records or until its
/// owner flushes it, whichever comes first.
///
/// Shared by concurrent transfers: ``add(_:)`` is called from any task. A stream's runner
/// calls ``flush()`` on each progress tick (250 ms) and once every piece has ended
/// (finished, failed or cancelled); the manager calls it for the queue's files before it
/// records a batch of them `downloaded`, and when its runner stops.
final class CompletionBatch: Sendable {
  /// How many records a batch holds before the transfer that fills it writes them.
  static let defaultLimit = 64

  /// The most records held before they are written.
  let limit: Int
  private let journal: TransferJournal
  private let pending = Locked<[TransferRecord]>([])

  /// A batch of at most `limit` records for `journal`.
  init(journal: TransferJournal, limit: Int = CompletionBatch.defaultLimit) {
    self.journal = journal
    self.limit = max(1, limit)
  }

  /// Holds `record`; when that fills the batch, writes every held record in one transaction
  /// on the calling thread.
  ///
  /// - Throws: The journal's error when the batch is written; its records are dropped then
  ///   (the pieces stay on disk with their response records, so nothing is lost but the
  ///   shortcut), and the error fails the piece that filled the batch as a per-piece write
  ///   would have.
  func add(_ record: TransferRecord) throws(StoreError) {
    let full: [TransferRecord]? = pending.withLock { records in
      records.append(record)
      guard records.count >= limit else { return nil }
      defer { records.removeAll(keepingCapacity: true) }
      return records
    }
    if let full { try journal.save(full) }
  }

  /// Forgets the held record of `destination`, whose file and journal entry are being
  /// deleted: written later, it would describe a file that is gone.
  func discard(destination: String) {
    pending.withLock { records in records.removeAll { $0.destination == destination } }
  }

  /// Writes every held record in one transaction.
  func flush() throws(StoreError) {
    let held = pending.withLock { records in
      defer { records.removeAll() }
      return records
    }
    try journal.save(held)
  }
}
