import Foundation

extension TransferJournal {
  /// The migrations that record which pieces of a segmented download were checked against
  /// their hashes (a Metalink's `pieces`), applied after ``packMigrations``.
  static let pieceMigrations: [Migration] = [
    Migration("transfers.v5.verified-pieces") { connection throws(StoreError) in
      try connection.execute(
        """
        CREATE TABLE transfer_verified_pieces (
          destination TEXT NOT NULL,
          piece INTEGER NOT NULL CHECK (piece >= 0),
          PRIMARY KEY (destination, piece)
        ) WITHOUT ROWID;
        """)
    }
  ]

  /// The pieces of `destination` recorded as checked, in order; empty when none is.
  package func verifiedPieces(forDestination destination: String) throws(StoreError) -> [Int] {
    try database.query(
      "SELECT piece FROM transfer_verified_pieces WHERE destination = ? ORDER BY piece",
      [.text(destination)]
    ).map { row throws(StoreError) in Int(try row.int64("piece")) }
  }

  /// Replaces the ranges of `destination` with `ranges` and adds `pieces` to its checked
  /// pieces, in one transaction. Call it only after the bytes before each `next`, and every
  /// byte of each piece, were fsynced.
  package func saveRanges(
    _ ranges: [TransferRange], addingVerifiedPieces pieces: [Int],
    forDestination destination: String
  ) throws(StoreError) {
    let result = try database.writeTransaction { connection throws(StoreError) in
      try connection.execute(
        "DELETE FROM transfer_ranges WHERE destination = ?", [.text(destination)])
      for range in ranges {
        try connection.execute(
          "INSERT INTO transfer_ranges (destination, start, \"end\", next) VALUES (?, ?, ?, ?)",
          [.text(destination), .integer(range.start), .integer(range.end), .integer(range.next)])
      }
      for piece in pieces {
        try connection.execute(
          "INSERT OR IGNORE INTO transfer_verified_pieces (destination, piece) VALUES (?, ?)",
          [.text(destination), .integer(Int64(piece))])
      }
    }
    try result.get()
  }

  /// Forgets the checked pieces of `destination` (a new plan, or a finished file).
  package func removeVerifiedPieces(forDestination destination: String) throws(StoreError) {
    try database.execute(
      "DELETE FROM transfer_verified_pieces WHERE destination = ?", [.text(destination)])
  }
}
