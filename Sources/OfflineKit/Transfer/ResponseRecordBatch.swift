import OfflineLocks
import OfflineStore
import Synchronization

/// The response records of finished transfers that are not synced one by one (the pieces of
/// a stream, the files of the manager's queue), written many in one transaction just before
/// each of them renames its part into place: group commit.
///
/// Such a transfer must have the record of its response (phase `active`, with its length) in
/// the journal before the rename, because within the same boot that record is what lets the
/// next run take a renamed file as finished (see ``CompletionBatch``). One commit per piece
/// was the largest single cost a profile of a 1000-segment stream showed (13 % of the
/// process's samples, most of it SQLite's WAL frames and locks), for records of a few hundred
/// bytes each; for a queue of small files, the largest of the runner's commits per file.
/// Here the first transfer to arrive leads: it waits ``gather`` (1 ms) for others
/// finishing at about the same moment (only while more than one transfer runs, see
/// ``writers``; the manager's queue waits for none), then writes every record that arrived in
/// one transaction and wakes their transfers with the outcome. Records handed in while that
/// transaction runs go together in the next, which the oldest of their transfers leads at
/// once: transfers never contend for the database one by one. Each transfer renames only after its record is written, so a
/// crash at any point leaves the journal as the per-piece commits left it.
///
/// Shared by the concurrent transfers of one run: ``write(_:)`` is called from any task; the
/// waiting is a suspension, never a blocked thread.
final class ResponseRecordBatch: Sendable {
  /// How long the leading transfer waits for others before it writes, by default.
  static let defaultGather: Duration = .milliseconds(1)

  /// How long the leading transfer waits for others before it writes.
  let gather: Duration

  /// How many transfers may write next (the owner's count in flight, the caller included).
  /// At 1 or below nobody else can join, so the leader writes at once.
  let writers = Atomic<Int>(1)

  /// What a waiting transfer is told: its record was written (or failed with the others),
  /// or it leads the next transaction, which others already wait for.
  private enum Turn {
    case written(Result<Void, StoreError>)
    case leadNext
  }
  private typealias Waiter = CheckedContinuation<Turn?, Never>
  private struct State {
    var waiting: [(record: TransferRecord, waiter: Waiter)] = []
    var leading = false
  }
  private let journal: TransferJournal
  private let state = Locked(State())

  /// A batch for `journal` whose leader waits `gather` for others; with none, the records
  /// handed in while one transaction runs go together in the next.
  init(journal: TransferJournal, gather: Duration = ResponseRecordBatch.defaultGather) {
    self.journal = journal
    self.gather = gather
  }

  /// How many records wait for the next transaction (handed in while one runs).
  var waitingCount: Int { state.withLock { $0.waiting.count } }

  /// Writes `record`, in one transaction with the records other transfers hand in meanwhile;
  /// returns once it is in the journal.
  ///
  /// - Throws: The journal's error when the transaction fails; every record in it failed
  ///   then, and each of their transfers stops as a write of its own would have stopped it.
  func write(_ record: TransferRecord) async throws(StoreError) {
    let followed = await withCheckedContinuation { (waiter: Waiter) in
      let leads = state.withLock { state in
        guard state.leading else {
          state.leading = true
          return true
        }
        state.waiting.append((record, waiter))
        return false
      }
      if leads { waiter.resume(returning: nil) }
    }
    if case .written(let outcome) = followed { return try outcome.get() }
    if followed == nil, gather > .zero, writers.load(ordering: .relaxed) > 1 {
      // Cancellation ends the wait early; the records are written all the same.
      try? await Task.sleep(for: gather)
    }
    let joined = state.withLock { state in
      defer { state.waiting.removeAll() }
      return state.waiting
    }
    let outcome = Result { () throws(StoreError) in
      try journal.save([record] + joined.map(\.record))
    }
    for follower in joined { follower.waiter.resume(returning: .written(outcome)) }
    // Records handed in while this transaction ran wait for the next: the oldest of their
    // transfers leads it, with all of them, at once (no gather: they are already there).
    let next = state.withLock { state -> Waiter? in
      guard !state.waiting.isEmpty else {
        state.leading = false
        return nil
      }
      return state.waiting.removeFirst().waiter
    }
    next?.resume(returning: .leadNext)
    try outcome.get()
  }
}
