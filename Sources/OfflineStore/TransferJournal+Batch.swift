import Foundation

/// Many records at once: what a stream's pieces need, so a thousand pieces do not cost a
/// thousand journal commits or reads.
extension TransferJournal {
  /// Inserts or replaces every record of `records` in one transaction, stamping each
  /// `updatedAt`; nothing is written when one of them fails.
  ///
  /// - Throws: ``StoreError/Code-swift.struct/constraint`` when a record's ``TransferRecord/durableOffset``
  ///   or ``TransferRecord/totalLength`` is negative (the transaction is rolled back), or the
  ///   error of beginning or committing it.
  package func save(_ records: [TransferRecord]) throws(StoreError) {
    guard !records.isEmpty else { return }
    let now = StoredTime.milliseconds(Date())
    let outcome = try database.writeTransaction { connection throws(StoreError) in
      for record in records {
        try connection.execute(Self.upsertSQL, Self.upsertArguments(record, now: now))
      }
    }
    try outcome.get()
  }

  /// The records of every destination inside `folder` (its path, with or without a trailing
  /// slash), keyed by destination, read in one query.
  package func records(under folder: String) throws(StoreError) -> [String: TransferRecord] {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    // Every path that starts with "<folder>/" sorts (bytewise, the key's collation) from
    // "<folder>/" up to, not including, "<folder>0" ("0" follows "/"), so the primary key's
    // index answers this without scanning the whole journal.
    let end = String(prefix.dropLast()) + "0"
    let rows = try database.query(
      "SELECT * FROM transfers WHERE destination >= ? AND destination < ?",
      [.text(prefix), .text(end)])
    var records: [String: TransferRecord] = [:]
    for row in rows {
      let record = try Self.record(from: row)
      records[record.destination] = record
    }
    return records
  }

  /// The records of `destinations` (those that have one), keyed by destination, read in one
  /// query: a batch of finished files in a shared folder is looked up at once, not one read
  /// each.
  package func records(forDestinations destinations: some Collection<String>)
    throws(StoreError) -> [String: TransferRecord]
  {
    guard !destinations.isEmpty else { return [:] }
    let rows = try database.query(
      "SELECT * FROM transfers WHERE destination IN (SELECT value FROM json_each(?))",
      [.jsonArray(destinations)])
    var records: [String: TransferRecord] = [:]
    for row in rows {
      let record = try Self.record(from: row)
      records[record.destination] = record
    }
    return records
  }
}
