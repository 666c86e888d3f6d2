import Foundation

/// One source of a content's file fetched from several, as its last complete download
/// left it: how many bytes it served, how many pieces it served wrong, and why it was
/// dropped.
package struct StoredSourceReport: Sendable, Equatable {
  /// The source's URL.
  package var url: String
  /// Whether it was the primary URL.
  package var isPrimary: Bool
  /// Body bytes it served.
  package var bytes: Int64
  /// Pieces it served with the wrong SHA-256.
  package var badPieces: Int
  /// Why it was dropped, as a sentence; nil when it was used to the end.
  package var dropped: String?
  /// The HLS content steering pathway ID of the source; nil when it has none.
  package var pathway: String?

  /// A report with these values.
  package init(
    url: String, isPrimary: Bool, bytes: Int64, badPieces: Int, dropped: String?,
    pathway: String? = nil
  ) {
    self.url = url
    self.isPrimary = isPrimary
    self.bytes = bytes
    self.badPieces = badPieces
    self.dropped = dropped
    self.pathway = pathway
  }
}

extension ContentTable {
  /// The migrations that keep what each source of a content's file served
  /// (``StoredSourceReport``), applied after ``pieceCheckMigrations``.
  static let sourceReportMigrations: [Migration] = [
    Migration("contents.v8.source-reports") { connection throws(StoreError) in
      try connection.execute(
        """
        ALTER TABLE contents ADD COLUMN source_reports INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE content_sources (
          content_id TEXT NOT NULL,
          position INTEGER NOT NULL CHECK (position >= 0),
          url TEXT NOT NULL,
          is_primary INTEGER NOT NULL,
          bytes INTEGER NOT NULL CHECK (bytes >= 0),
          bad_pieces INTEGER NOT NULL CHECK (bad_pieces >= 0),
          dropped TEXT,
          PRIMARY KEY (content_id, position)
        ) WITHOUT ROWID;
        """)
    },
    // The pathway ID of a stream's source, beside its URL (issue 43).
    Migration("contents.v9.source-pathways") { connection throws(StoreError) in
      try connection.execute("ALTER TABLE content_sources ADD COLUMN pathway TEXT;")
    },
  ]

  /// Replaces the source reports of content `id` with `reports`, in order, and marks its
  /// record (``ContentRecord/hasSourceReports``), in one transaction (empty forgets them).
  package func setSourceReports(_ reports: [StoredSourceReport], id: String) throws(StoreError) {
    defer { didWrite() }
    let result = try database.writeTransaction { connection throws(StoreError) in
      try connection.execute("DELETE FROM content_sources WHERE content_id = ?", [.text(id)])
      try connection.execute(
        "UPDATE contents SET source_reports = ? WHERE id = ?",
        [.integer(reports.isEmpty ? 0 : 1), .text(id)])
      for (position, report) in reports.enumerated() {
        try connection.execute(
          """
          INSERT INTO content_sources
            (content_id, position, url, is_primary, bytes, bad_pieces, dropped, pathway)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .text(id), .integer(Int64(position)), .text(report.url),
            .integer(report.isPrimary ? 1 : 0), .integer(report.bytes),
            .integer(Int64(report.badPieces)), report.dropped.map { .text($0) } ?? .null,
            report.pathway.map { .text($0) } ?? .null,
          ])
      }
    }
    try result.get()
  }

  /// The source reports of content `id`, in order; empty when none are kept.
  package func sourceReports(id: String) throws(StoreError) -> [StoredSourceReport] {
    try database.query(
      """
      SELECT url, is_primary, bytes, bad_pieces, dropped, pathway FROM content_sources
      WHERE content_id = ? ORDER BY position
      """, [.text(id)]
    ).map { row throws(StoreError) in
      StoredSourceReport(
        url: try row.string("url"), isPrimary: try row.int64("is_primary") != 0,
        bytes: try row.int64("bytes"), badPieces: Int(try row.int64("bad_pieces")),
        dropped: try row.stringOrNil("dropped"), pathway: try row.stringOrNil("pathway"))
    }
  }
}
