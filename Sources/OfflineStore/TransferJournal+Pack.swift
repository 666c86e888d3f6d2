/// Pieces in a pack: the migration that records where, and the removal of a pack's pieces.
extension TransferJournal {
  /// The migration that records where in a pack a piece's bytes are (``TransferRecord/Pack``),
  /// applied after ``identityMigrations``.
  static let packMigrations: [Migration] = [
    Migration("transfers.v4.pack") { connection throws(StoreError) in
      try connection.execute(
        """
        ALTER TABLE transfers ADD COLUMN pack_path TEXT;
        ALTER TABLE transfers ADD COLUMN pack_offset INTEGER
          CHECK (pack_offset IS NULL OR pack_offset >= 0);
        """)
    }
  ]

  /// Deletes the records of every piece whose bytes are in the pack at `path` (a damaged
  /// pack, to be fetched again); returns how many there were.
  @discardableResult
  package func remove(packedIn path: String) throws(StoreError) -> Int {
    try database.query(
      "DELETE FROM transfers WHERE pack_path = ? RETURNING 1", [.text(path)]
    ).count
  }

  /// Deletes the records of the pieces whose bytes start at `offsets` in the pack at `path`
  /// (the damaged ones, to be fetched again), in one transaction; returns how many there
  /// were.
  @discardableResult
  package func remove(packedIn path: String, at offsets: [Int64]) throws(StoreError) -> Int {
    let outcome = try database.writeTransaction { connection throws(StoreError) -> Int in
      var removed = 0
      for offset in offsets {
        removed +=
          try connection.query(
            "DELETE FROM transfers WHERE pack_path = ? AND pack_offset = ? RETURNING 1",
            [.text(path), .integer(offset)]
          ).count
      }
      return removed
    }
    return try outcome.get()
  }

  static func pack(from row: Row) throws(StoreError) -> TransferRecord.Pack? {
    guard let path = try row.stringOrNil("pack_path"),
      let offset = try row.int64OrNil("pack_offset")
    else { return nil }
    return TransferRecord.Pack(path: path, offset: offset)
  }
}
