import Foundation

extension ContentTable {
  /// Reads the records with `ids`, lets `body` change each one, and writes back those for
  /// which it returns true, all in one transaction: many contents' state changes cost one
  /// commit (group commit) instead of one each.
  ///
  /// Ids without a record are skipped. When `body` throws, nothing at all is written and the
  /// error is rethrown.
  ///
  /// - Returns: The records written, as stored, in the order of `ids`.
  @discardableResult
  package func update(
    ids: [String], _ body: (inout ContentRecord) throws -> Bool
  ) throws -> [ContentRecord] {
    defer { didWrite() }
    return try database.transaction { connection -> [ContentRecord] in
      var written: [ContentRecord] = []
      let now = StoredTime.rounded(Date())
      for id in ids {
        let rows = try connection.query("SELECT * FROM contents WHERE id = ?", [.text(id)])
        guard let row = rows.first else { continue }
        var record = try Self.record(from: row)
        guard try body(&record) else { continue }
        record.id = id
        record.updatedAt = now
        try connection.execute(Self.upsertSQL, Self.arguments(record))
        written.append(record)
      }
      return written
    }
  }
}
