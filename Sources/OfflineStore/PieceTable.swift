import Foundation

/// What every file of each downloaded content must be (``PieceRecord``), in the `pieces`
/// table: the truth that `verify` checks files against and `repair` mends them to.
///
/// Written once per content when its download finishes (one transaction replaces the
/// content's rows), read by the quick check on every open. Safe to share: every call goes
/// through the ``Database`` lock.
///
/// ```swift
/// let pieces = try PieceTable(database: index.database)
/// try pieces.replace([record], forContent: "a1")
/// let recorded = try pieces.pieces(ofContent: "a1")
/// ```
package final class PieceTable: Sendable {
  /// The migrations of the table, in order; append, never edit.
  package static let migrations: [Migration] = [
    Migration("pieces.v1.create") { connection throws(StoreError) in
      try connection.execute(
        """
        CREATE TABLE pieces (
          content_id TEXT NOT NULL,
          path TEXT NOT NULL,
          kind TEXT NOT NULL,
          size INTEGER NOT NULL CHECK (size >= 0),
          sha256 TEXT NOT NULL,
          chunk_sha256 TEXT NOT NULL,
          url TEXT,
          etag TEXT,
          last_modified TEXT,
          file_mtime_ns INTEGER,
          file_inode INTEGER,
          file_device INTEGER,
          PRIMARY KEY (content_id, path)
        ) WITHOUT ROWID;
        """)
    }
  ]

  /// The database the table lives in.
  package let database: Database

  /// Opens the table in `database`, applying its ``migrations`` if needed.
  package init(database: Database) throws(StoreError) {
    self.database = database
    try Migrator(Self.migrations).migrate(database)
  }

  /// The records of content `id`, by path.
  package func pieces(ofContent id: String) throws(StoreError) -> [PieceRecord] {
    try database.query(
      "SELECT * FROM pieces WHERE content_id = ? ORDER BY path", [.text(id)]
    ).map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// Every record, by content: one query for a whole list (`ls`).
  package func allPieces() throws(StoreError) -> [String: [PieceRecord]] {
    let rows = try database.query("SELECT * FROM pieces ORDER BY content_id, path")
    var found: [String: [PieceRecord]] = [:]
    for row in rows {
      let record = try Self.record(from: row)
      found[record.contentID, default: []].append(record)
    }
    return found
  }

  /// Replaces the records of content `id` with `records`, in one transaction.
  package func replace(_ records: [PieceRecord], forContent id: String) throws(StoreError) {
    try database.writeTransaction { connection throws(StoreError) in
      try connection.execute("DELETE FROM pieces WHERE content_id = ?", [.text(id)])
      for record in records where record.contentID == id {
        try connection.execute(Self.insertSQL, Self.arguments(record))
      }
    }.get()
  }

  /// Replaces the records of each content in `byContent` with its list, all in one
  /// transaction: a batch of finished files costs one commit, not one each.
  package func replace(byContent: [String: [PieceRecord]]) throws(StoreError) {
    guard !byContent.isEmpty else { return }
    try database.writeTransaction { connection throws(StoreError) in
      for (id, records) in byContent.sorted(by: { $0.key < $1.key }) {
        try connection.execute("DELETE FROM pieces WHERE content_id = ?", [.text(id)])
        for record in records where record.contentID == id {
          try connection.execute(Self.insertSQL, Self.arguments(record))
        }
      }
    }.get()
  }

  /// Inserts or replaces `records` (a repair, a verify that found a file whole again).
  package func save(_ records: [PieceRecord]) throws(StoreError) {
    guard !records.isEmpty else { return }
    try database.writeTransaction { connection throws(StoreError) in
      for record in records { try connection.execute(Self.insertSQL, Self.arguments(record)) }
    }.get()
  }

  /// Deletes the records of content `id` (deleted, canceled, downloaded again).
  package func remove(content id: String) throws(StoreError) {
    try database.execute("DELETE FROM pieces WHERE content_id = ?", [.text(id)])
  }

  private static let insertSQL = """
    INSERT OR REPLACE INTO pieces (content_id, path, kind, size, sha256, chunk_sha256, url,
      etag, last_modified, file_mtime_ns, file_inode, file_device)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  private static func arguments(_ record: PieceRecord) -> [SQLValue] {
    [
      .text(record.contentID), .text(record.path), .text(record.kind.rawValue),
      .integer(record.size), .text(record.sha256), .text(record.chunkSHA256.joined()),
      SQLValue(record.url), SQLValue(record.etag), SQLValue(record.lastModified),
      SQLValue(record.identity?.modificationNanoseconds), SQLValue(record.identity?.inode),
      SQLValue(record.identity?.device),
    ]
  }

  private static func record(from row: Row) throws(StoreError) -> PieceRecord {
    let kindName = try row.string("kind")
    guard let kind = PieceRecord.Kind(rawValue: kindName) else {
      throw StoreError(
        kind: .decoding, message: "unknown piece kind \"\(kindName)\"", sql: row.sql,
        path: row.path)
    }
    let size = try row.int64("size")
    var identity: FileIdentity?
    if let modified = try row.int64OrNil("file_mtime_ns"),
      let inode = try row.int64OrNil("file_inode"), let device = try row.int64OrNil("file_device")
    {
      identity = FileIdentity(
        size: size, modificationNanoseconds: modified, inode: inode, device: device)
    }
    let joined = Array(try row.string("chunk_sha256").utf8)
    let chunks = stride(from: 0, to: joined.count, by: 64).map {
      String(decoding: joined[$0..<min($0 + 64, joined.count)], as: UTF8.self)
    }
    return PieceRecord(
      contentID: try row.string("content_id"), path: try row.string("path"), kind: kind,
      size: size, sha256: try row.string("sha256"), chunkSHA256: chunks,
      url: try row.stringOrNil("url"), etag: try row.stringOrNil("etag"),
      lastModified: try row.stringOrNil("last_modified"), identity: identity)
  }
}
