import OfflineStore

/// The rows of the queue that may start next, read from the index once for several
/// launches rather than once per launch: with a thousand small files, the runner's query
/// for them (every row of the queue still `downloading`, less those running or waiting in a
/// batch) was the largest share of its SQLite time, run each time a file ended.
///
/// The rows read stay good while nothing that could change them happened: no write to the
/// contents table in this process but the runner's marks on what it runs
/// (``OfflineStore/ContentTable/revision``) and no commit by another process
/// (``OfflineStore/ContentTable/externalChangeCounter()``), both read before the rows. Each
/// turn of the runner reads them afresh, so a retry that fell due is noticed as before. A
/// value held by the manager actor.
struct UpcomingRows {
  /// What the index was when the rows were read.
  struct Stamp: Equatable {
    /// The contents table's in-process write count.
    let revision: Int
    /// The database's count of other connections' commits.
    let dataVersion: Int64
  }

  private var records: [ContentRecord] = []
  private var stamp: Stamp?
  /// The rows read whose file the transfer journal had no record for, read with them.
  private var unjournaled: Set<String> = []
  /// How many times the rows were read from the index: what the cache saves, for tests.
  private(set) var reads = 0

  /// The rows that may start, in queue order: those read earlier when `now` is the stamp
  /// they were read under and some are left, else what `read` returns. `unjournaled` is
  /// asked, right after a read, which of the rows read have no record in the transfer
  /// journal (see ``takeHasNoJournalRecord(_:)``).
  mutating func records(
    at now: Stamp, read: () -> [ContentRecord],
    unjournaled: ([ContentRecord]) -> Set<String> = { _ in [] }
  ) -> [ContentRecord] {
    if !isCurrent(at: now) {
      records = read()
      self.unjournaled = unjournaled(records)
      stamp = now
      reads += 1
    }
    return records
  }

  /// Whether ``records(at:read:unjournaled:)`` at `now` gives the rows read earlier, without
  /// reading.
  func isCurrent(at now: Stamp) -> Bool {
    now == stamp && !records.isEmpty
  }

  /// `id` was launched (or will not start): it is no longer among the rows that may start.
  mutating func remove(_ id: String) {
    records.removeAll { $0.id == id }
  }

  /// Whether the journal had no record for the file of `id` when its row was read, once:
  /// its launch skips the look-up (a read transaction per file of a queue of small files).
  /// Only this process's runner writes the journal of a queued file, and only once it has
  /// launched it, so the answer holds until then; a row is launched at most once per read.
  mutating func takeHasNoJournalRecord(_ id: String) -> Bool {
    unjournaled.remove(id) != nil
  }

  /// Forgets the rows: the next look reads them again.
  mutating func forget() {
    records = []
    unjournaled = []
    stamp = nil
  }
}
