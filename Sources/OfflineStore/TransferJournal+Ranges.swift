import Foundation

/// One range of a segmented download: bytes `start..<end` of the file, written up to
/// `next` (every byte before `next` is on disk).
package struct TransferRange: Sendable, Equatable {
  /// The first byte of the range.
  package var start: Int64
  /// One past the last byte of the range.
  package var end: Int64
  /// The first byte not yet known to be on disk.
  package var next: Int64

  /// Creates a range.
  package init(start: Int64, end: Int64, next: Int64) {
    self.start = start
    self.end = end
    self.next = next
  }

  /// Bytes still to fetch.
  package var remaining: Int64 { max(0, end - next) }
}

extension TransferJournal {
  /// The migrations of segmented downloads, applied after ``migrations``.
  static let rangeMigrations: [Migration] = [
    Migration("transfers.v2.ranges") { connection throws(StoreError) in
      try connection.execute(
        """
        CREATE TABLE transfer_ranges (
          destination TEXT NOT NULL,
          start INTEGER NOT NULL CHECK (start >= 0),
          "end" INTEGER NOT NULL,
          next INTEGER NOT NULL,
          PRIMARY KEY (destination, start)
        ) WITHOUT ROWID;
        """)
    }
  ]

  /// The ranges recorded for `destination`, in file order; empty when it is not segmented.
  package func ranges(forDestination destination: String) throws(StoreError) -> [TransferRange] {
    try database.query(
      "SELECT start, \"end\", next FROM transfer_ranges WHERE destination = ? ORDER BY start",
      [.text(destination)]
    ).map { row throws(StoreError) in
      TransferRange(
        start: try row.int64("start"), end: try row.int64("end"), next: try row.int64("next"))
    }
  }

  /// Replaces the ranges of `destination` with `ranges`, in one transaction. Call it only
  /// after the bytes before each `next` were fsynced.
  package func saveRanges(_ ranges: [TransferRange], forDestination destination: String)
    throws(StoreError)
  {
    let result = try database.writeTransaction { connection throws(StoreError) in
      try connection.execute(
        "DELETE FROM transfer_ranges WHERE destination = ?", [.text(destination)])
      for range in ranges {
        try connection.execute(
          "INSERT INTO transfer_ranges (destination, start, \"end\", next) VALUES (?, ?, ?, ?)",
          [.text(destination), .integer(range.start), .integer(range.end), .integer(range.next)])
      }
    }
    try result.get()
  }
}
