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
  /// How many times the rows were read from the index: what the cache saves, for tests.
  private(set) var reads = 0

  /// The rows that may start, in queue order: those read earlier when `now` is the stamp
  /// they were read under and some are left, else what `read` returns.
  mutating func records(
    at now: Stamp, read: () -> [ContentRecord]
  ) -> [ContentRecord] {
    if now != stamp || records.isEmpty {
      records = read()
      stamp = now
      reads += 1
    }
    return records
  }

  /// `id` was launched (or will not start): it is no longer among the rows that may start.
  mutating func remove(_ id: String) {
    records.removeAll { $0.id == id }
  }

  /// Forgets the rows: the next look reads them again.
  mutating func forget() {
    records = []
    stamp = nil
  }
}
