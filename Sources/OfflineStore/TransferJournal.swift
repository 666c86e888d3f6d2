import Foundation

/// The download journal: one ``TransferRecord`` per destination file, in the `transfers` table.
///
/// Safe to share: every call goes through the ``Database`` lock.
/// ``updateProgress(destination:durableOffset:bootID:)`` is the hot path: one cached `UPDATE`
/// and its commit (tens of microseconds with WAL and `synchronous=NORMAL`); call it after each
/// fsync of the `.part` file, never before.
///
/// ```swift
/// let journal = try TransferJournal(database: database)
/// try journal.save(TransferRecord(destination: "/data/a.mp4", url: "https://example.com/a.mp4"))
/// try journal.updateProgress(destination: "/data/a.mp4", durableOffset: 65_536, bootID: bootID)
/// ```
package final class TransferJournal: Sendable {
  /// The migrations of the journal, in order; append, never edit.
  package static let migrations: [Migration] = [
    Migration("transfers.v1.create") { connection throws(StoreError) in
      try connection.execute(
        """
        CREATE TABLE transfers (
          destination TEXT PRIMARY KEY NOT NULL,
          url TEXT NOT NULL,
          phase TEXT NOT NULL CHECK (phase IN ('active', 'finishing', 'complete')),
          durable_offset INTEGER NOT NULL CHECK (durable_offset >= 0),
          boot_id TEXT,
          total_length INTEGER CHECK (total_length IS NULL OR total_length >= 0),
          etag TEXT,
          last_modified TEXT,
          expected_sha256 TEXT,
          sha256 TEXT,
          updated_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX transfers_updated_at ON transfers (updated_at);
        """)
    }
  ]

  /// The database the journal lives in.
  package let database: Database

  /// Opens the journal in `database`, applying its ``migrations`` if needed.
  package init(database: Database) throws(StoreError) {
    self.database = database
    try Migrator(
      Self.migrations + Self.rangeMigrations + Self.identityMigrations + Self.packMigrations
        + Self.pieceMigrations
    ).migrate(database)
  }

  /// The record for `destination`, or nil when the journal has none.
  package func record(forDestination destination: String) throws(StoreError) -> TransferRecord? {
    let rows = try database.query(
      "SELECT * FROM transfers WHERE destination = ?", [.text(destination)])
    return try rows.first.map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// Inserts `record`, or replaces the record with the same destination, stamping `updatedAt`.
  ///
  /// - Returns: The record as stored, with its new ``TransferRecord/updatedAt``.
  /// - Throws: ``StoreError/Code-swift.struct/constraint`` when ``TransferRecord/durableOffset`` or
  ///   ``TransferRecord/totalLength`` is negative.
  @discardableResult
  package func save(_ record: TransferRecord) throws(StoreError) -> TransferRecord {
    var stored = record
    let now = StoredTime.milliseconds(Date())
    stored.updatedAt = StoredTime.date(milliseconds: now)
    try database.execute(Self.upsertSQL, Self.upsertArguments(record, now: now))
    return stored
  }

  /// The statement of ``save(_:)``: insert, or replace the record of the same destination.
  static let upsertSQL = """
    INSERT INTO transfers (destination, url, phase, durable_offset, boot_id, total_length, etag,
      last_modified, expected_sha256, sha256, content_encoding, file_size, file_mtime_ns,
      file_inode, file_device, pack_path, pack_offset, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (destination) DO UPDATE SET url = excluded.url, phase = excluded.phase,
      durable_offset = excluded.durable_offset, boot_id = excluded.boot_id,
      total_length = excluded.total_length, etag = excluded.etag,
      last_modified = excluded.last_modified, expected_sha256 = excluded.expected_sha256,
      sha256 = excluded.sha256, content_encoding = excluded.content_encoding,
      file_size = excluded.file_size, file_mtime_ns = excluded.file_mtime_ns,
      file_inode = excluded.file_inode, file_device = excluded.file_device,
      pack_path = excluded.pack_path, pack_offset = excluded.pack_offset,
      updated_at = excluded.updated_at
    """

  /// The arguments of ``upsertSQL`` for `record`, stamped `now` (milliseconds).
  static func upsertArguments(_ record: TransferRecord, now: Int64) -> [SQLValue] {
    [
      .text(record.destination), .text(record.url), .text(record.phase.rawValue),
      .integer(record.durableOffset), SQLValue(record.bootID), SQLValue(record.totalLength),
      SQLValue(record.etag), SQLValue(record.lastModified), SQLValue(record.expectedSHA256),
      SQLValue(record.sha256), SQLValue(record.contentEncoding),
      SQLValue(record.fileIdentity?.size), SQLValue(record.fileIdentity?.modificationNanoseconds),
      SQLValue(record.fileIdentity?.inode), SQLValue(record.fileIdentity?.device),
      SQLValue(record.pack?.path), SQLValue(record.pack?.offset), .integer(now),
    ]
  }

  /// Records that the first `durableOffset` bytes of the `.part` file are on disk; the hot path.
  ///
  /// Call it only after the bytes were fsynced. It also stamps `updatedAt`.
  ///
  /// - Returns: Whether a record was updated. For a destination the journal does not know (its
  ///   record was removed, say by a cancel that raced the last write) nothing happens and the
  ///   result is `false`: no error, so a late progress write cannot fail a transfer.
  @discardableResult
  package func updateProgress(
    destination: String, durableOffset: Int64, bootID: String?
  ) throws(StoreError) -> Bool {
    let rows = try database.query(
      """
      UPDATE transfers SET durable_offset = ?, boot_id = ?, updated_at = ?
      WHERE destination = ? RETURNING 1
      """,
      [
        .integer(durableOffset), SQLValue(bootID), .integer(StoredTime.milliseconds(Date())),
        .text(destination),
      ])
    return !rows.isEmpty
  }

  /// Deletes the record for `destination` (and its ranges and checked pieces); does nothing
  /// when there is none.
  package func remove(destination: String) throws(StoreError) {
    try database.execute("DELETE FROM transfers WHERE destination = ?", [.text(destination)])
    try database.execute("DELETE FROM transfer_ranges WHERE destination = ?", [.text(destination)])
    try removeVerifiedPieces(forDestination: destination)
  }

  /// Deletes the records of every destination inside `folder` (its path, without a trailing
  /// slash): the pieces of a stream, say.
  package func remove(under folder: String) throws(StoreError) {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    let arguments: [SQLValue] = [.integer(Int64(prefix.unicodeScalars.count)), .text(prefix)]
    try database.execute("DELETE FROM transfers WHERE substr(destination, 1, ?) = ?", arguments)
    try database.execute(
      "DELETE FROM transfer_ranges WHERE substr(destination, 1, ?) = ?", arguments)
    try database.execute(
      "DELETE FROM transfer_verified_pieces WHERE substr(destination, 1, ?) = ?", arguments)
  }

  /// Every record, least recently updated first.
  package func all() throws(StoreError) -> [TransferRecord] {
    try database.query("SELECT * FROM transfers ORDER BY updated_at, destination")
      .map { row throws(StoreError) in try Self.record(from: row) }
  }

  static func record(from row: Row) throws(StoreError) -> TransferRecord {
    let phaseName = try row.string("phase")
    guard let phase = TransferRecord.Phase(rawValue: phaseName) else {
      throw StoreError(
        kind: .decoding, message: "unknown transfer phase \"\(phaseName)\"", sql: row.sql,
        path: row.path)
    }
    return TransferRecord(
      destination: try row.string("destination"), url: try row.string("url"), phase: phase,
      durableOffset: try row.int64("durable_offset"), bootID: try row.stringOrNil("boot_id"),
      totalLength: try row.int64OrNil("total_length"), etag: try row.stringOrNil("etag"),
      lastModified: try row.stringOrNil("last_modified"),
      expectedSHA256: try row.stringOrNil("expected_sha256"),
      sha256: try row.stringOrNil("sha256"),
      contentEncoding: try row.stringOrNil("content_encoding"),
      fileIdentity: try identity(from: row), pack: try pack(from: row),
      updatedAt: StoredTime.date(milliseconds: try row.int64("updated_at")))
  }

  private static func identity(from row: Row) throws(StoreError) -> FileIdentity? {
    guard let size = try row.int64OrNil("file_size"),
      let modified = try row.int64OrNil("file_mtime_ns"),
      let inode = try row.int64OrNil("file_inode"), let device = try row.int64OrNil("file_device")
    else { return nil }
    return FileIdentity(size: size, modificationNanoseconds: modified, inode: inode, device: device)
  }

}
