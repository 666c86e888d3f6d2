import Foundation

/// The SHA-256 of each piece of a content's file (a Metalink's `pieces`), kept so that a
/// queued download checks each piece as it lands, in whichever process runs it, and after a
/// resume too.
package struct StoredPieceChecks: Sendable, Equatable {
  /// The length of every piece but the last.
  package var length: Int64
  /// The file's length.
  package var size: Int64
  /// Each piece's SHA-256, 32 bytes each, in file order.
  package var hashes: [[UInt8]]

  /// Checks with these values.
  package init(length: Int64, size: Int64, hashes: [[UInt8]]) {
    self.length = length
    self.size = size
    self.hashes = hashes
  }
}

extension ContentTable {
  /// The migration that keeps a content's piece checks (``StoredPieceChecks``), applied
  /// after the table's own.
  static let pieceCheckMigrations: [Migration] = [
    Migration("contents.v7.piece-checks") { connection throws(StoreError) in
      try connection.execute(
        """
        ALTER TABLE contents ADD COLUMN piece_checks INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE content_piece_checks (
          content_id TEXT PRIMARY KEY NOT NULL,
          piece_length INTEGER NOT NULL CHECK (piece_length > 0),
          size INTEGER NOT NULL CHECK (size >= 0),
          hashes BLOB NOT NULL CHECK (length(hashes) % 32 = 0)
        ) WITHOUT ROWID;
        """)
    }
  ]

  /// Keeps `checks` for content `id` (nil forgets them). Call it before the content's record
  /// is inserted with ``ContentRecord/hasPieceChecks``, so no runner starts it without them.
  package func setPieceChecks(_ checks: StoredPieceChecks?, id: String) throws(StoreError) {
    defer { didWrite() }
    guard let checks else {
      try database.execute("DELETE FROM content_piece_checks WHERE content_id = ?", [.text(id)])
      return
    }
    try database.execute(
      """
      INSERT OR REPLACE INTO content_piece_checks (content_id, piece_length, size, hashes)
      VALUES (?, ?, ?, ?)
      """,
      [
        .text(id), .integer(checks.length), .integer(checks.size),
        .blob(checks.hashes.flatMap { $0 }),
      ])
  }

  /// The piece checks kept for content `id`, nil when none are.
  ///
  /// - Throws: ``StoreError`` when they cannot be read, or do not cover the file they
  ///   describe (`decoding`).
  package func pieceChecks(id: String) throws(StoreError) -> StoredPieceChecks? {
    let rows = try database.query(
      "SELECT piece_length, size, hashes FROM content_piece_checks WHERE content_id = ?",
      [.text(id)])
    guard let row = rows.first else { return nil }
    let bytes = try row.blob("hashes")
    let (length, size) = (try row.int64("piece_length"), try row.int64("size"))
    let count = Int64(bytes.count / 32)
    guard length > 0, size >= 0, bytes.count % 32 == 0, count == (size + length - 1) / length
    else {
      throw StoreError(
        kind: .decoding, message: "the piece hashes of \(id) do not cover its file",
        sql: nil, path: database.path)
    }
    let hashes = stride(from: 0, to: bytes.count, by: 32).map { Array(bytes[$0..<($0 + 32)]) }
    return StoredPieceChecks(length: length, size: size, hashes: hashes)
  }
}
