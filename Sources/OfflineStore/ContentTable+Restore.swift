import Foundation

extension ContentTable {
  /// Puts `records` back as they were (their ``ContentRecord/sequence`` and times kept), in
  /// one transaction: a rebuild of the index from the contents' manifests.
  ///
  /// - Throws: ``StoreError/Kind/constraint`` when an id is taken (and nothing is added).
  public func restore(_ records: [ContentRecord]) throws(StoreError) {
    let result = try database.writeTransaction { connection throws(StoreError) in
      for var record in records {
        record.createdAt = StoredTime.rounded(record.createdAt)
        record.updatedAt = StoredTime.rounded(Date())
        try connection.execute(Self.insertSQL, Self.arguments(record))
      }
    }
    try result.get()
  }
}
