import Foundation

extension ContentTable {
  /// Puts `records` back as they were (their ``ContentRecord/sequence`` and times kept), in
  /// one transaction: a rebuild of the index from the contents' manifests. A record whose id
  /// is there already (another process rebuilt first) is left as it is, and so is one with a
  /// flat file whose name a stored flat file has (two manifests claiming one file).
  ///
  /// - Returns: The ids put back.
  @discardableResult
  package func restore(_ records: [ContentRecord]) throws(StoreError) -> Set<String> {
    defer { didWrite() }
    let result = try database.writeTransaction { connection throws(StoreError) -> Set<String> in
      var restored = Set<String>()
      for var record in records {
        let existing = try connection.query(
          "SELECT 1 AS one FROM contents WHERE id = ?", [.text(record.id)])
        guard existing.isEmpty else { continue }
        if record.flatFile,
          !(try connection.query(Self.flatNameTakenSQL, [.text(record.fileName)])).isEmpty
        {
          continue
        }
        record.createdAt = StoredTime.rounded(record.createdAt)
        record.updatedAt = StoredTime.rounded(Date())
        try connection.execute(Self.insertSQL, Self.arguments(record))
        restored.insert(record.id)
      }
      return restored
    }
    return try result.get()
  }

  /// Whether the table holds no record.
  package func isEmpty() throws(StoreError) -> Bool {
    try database.query("SELECT 1 AS one FROM contents LIMIT 1").isEmpty
  }
}
