import Foundation
import Synchronization

/// The contents of a store, in the `contents` table: what the offline manager downloads,
/// keeps and deletes.
///
/// Safe to share: every call goes through the ``Database`` lock, and read-modify-write
/// changes run in one transaction (``update(id:_:)``), so two processes working on one store
/// never lose each other's changes.
package final class ContentTable: Sendable {
  private let writes = Atomic<Int>(0)

  /// The migrations of the table, in order; append, never edit.
  package static let migrations: [Migration] =
    [
      Migration("contents.v1.create") { connection throws(StoreError) in
        try connection.execute(
          """
          CREATE TABLE contents (
            id TEXT PRIMARY KEY NOT NULL,
            url TEXT NOT NULL,
            title TEXT,
            metadata TEXT,
            file_name TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN
              ('notDownloaded', 'downloading', 'suspended', 'downloaded', 'canceling')),
            priority INTEGER NOT NULL DEFAULT 0,
            sequence INTEGER NOT NULL,
            bytes INTEGER NOT NULL DEFAULT 0 CHECK (bytes >= 0),
            total INTEGER,
            total_is_estimate INTEGER NOT NULL DEFAULT 0,
            expected_sha256 TEXT,
            last_error TEXT,
            last_error_kind TEXT,
            wait_reason TEXT,
            retry_count INTEGER NOT NULL DEFAULT 0,
            retry_at INTEGER,
            pending_cleanup INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
          ) WITHOUT ROWID;
          CREATE INDEX contents_queue ON contents (state, priority DESC, sequence);
          CREATE INDEX contents_sequence ON contents (sequence);
          CREATE INDEX contents_url ON contents (url);
          """)
      },
      Migration("contents.v2.cleanup-index") { connection throws(StoreError) in
        // Opening a store looks for cleanup intents; without this it reads every row.
        try connection.execute(
          "CREATE INDEX contents_cleanup ON contents (pending_cleanup) WHERE pending_cleanup = 1")
      },
      Migration("contents.v3.options") { connection throws(StoreError) in
        try connection.execute("ALTER TABLE contents ADD COLUMN options TEXT")
      },
      Migration("contents.v4.typed-values") { connection throws(StoreError) in
        // Records are read strictly from now on (an unknown value is an error, not a
        // default); what earlier versions read leniently is written here as they read it.
        try connection.execute(
          """
          UPDATE contents SET retry_at = updated_at
            WHERE wait_reason = 'retry' AND retry_at IS NULL;
          UPDATE contents SET wait_reason = NULL
            WHERE wait_reason NOT IN ('queued', 'network', 'storage', 'retry', 'starting');
          UPDATE contents SET options = NULL WHERE options IS NOT NULL AND NOT json_valid(options);
          """)
      },
      Migration("contents.v5.queue-settings") { connection throws(StoreError) in
        // Settings of the whole queue that a runner in another process follows (the rate
        // cap of `offline limit`); see ContentTable+Settings.swift.
        try connection.execute(
          "CREATE TABLE queue_settings (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID"
        )
      },
      Migration("contents.v6.flat-files") { connection throws(StoreError) in
        // A single file may live in the store's shared `files/` folder instead of a folder of
        // its own (see ContentRecord.flatFile). Every content made before keeps its folder;
        // two flat files never share a name, whatever the case of its letters.
        try connection.execute(
          """
          ALTER TABLE contents ADD COLUMN flat_file INTEGER NOT NULL DEFAULT 0;
          CREATE UNIQUE INDEX contents_flat_file ON contents (file_name COLLATE NOCASE)
            WHERE flat_file = 1;
          """)
      },
    ] + pieceCheckMigrations + sourceReportMigrations

  /// The database the table lives in.
  package let database: Database

  /// A number that changes after every write to the table through this object (counted
  /// once the write is over, whether it succeeded or not), except the runner's marks on
  /// the contents it runs: ``updateProgress(id:bytes:total:totalIsEstimate:)`` and
  /// ``setWaitReason(_:id:)`` to `starting` or nil. A reader that took it before reading
  /// the rows that may start (never those running) knows they are still what the table
  /// holds while it is unchanged and ``externalChangeCounter()`` says no other connection
  /// committed; at worst a row read while its content was stopping holds its bytes of a
  /// moment before.
  package var revision: Int { writes.load(ordering: .acquiring) }

  /// Counts a write in ``revision``; every writing method calls it as it returns.
  func didWrite() {
    writes.add(1, ordering: .releasing)
  }

  /// Opens the table in `database`, applying its ``migrations`` if needed.
  package init(database: Database) throws(StoreError) {
    self.database = database
    try Migrator(Self.migrations).migrate(database)
  }

  /// Adds `records` in one transaction, numbering their ``ContentRecord/sequence`` after every
  /// record already there, in the order given.
  ///
  /// A record with a ``ContentRecord/flatFile`` whose name a stored flat file (or an earlier
  /// one of `records`) already has is stored with a folder of its own instead, in the same
  /// transaction, so two processes adding at once never share a file.
  ///
  /// - Returns: The records as stored.
  /// - Throws: ``StoreError/Code-swift.struct/constraint`` when an id is taken (and nothing is added).
  @discardableResult
  package func insert(_ records: [ContentRecord]) throws(StoreError) -> [ContentRecord] {
    defer { didWrite() }
    let result = try database.writeTransaction { connection throws(StoreError) -> [ContentRecord] in
      let last = try connection.query("SELECT COALESCE(MAX(sequence), 0) AS last FROM contents")
      var sequence = try last.first?.int64("last") ?? 0
      var stored: [ContentRecord] = []
      stored.reserveCapacity(records.count)
      for var record in records {
        sequence += 1
        record.sequence = sequence
        record.updatedAt = StoredTime.rounded(Date())
        record.createdAt = StoredTime.rounded(record.createdAt)
        do throws(StoreError) {
          try connection.execute(Self.insertSQL, Self.arguments(record))
        } catch {
          // The unique index of flat names refused it (no query per record: 10,000 of them
          // were a tenth of `add`): a folder of its own. A taken id fails again, as before.
          guard error.kind == .constraint, record.flatFile else { throw error }
          record.flatFile = false
          try connection.execute(Self.insertSQL, Self.arguments(record))
        }
        stored.append(record)
      }
      return stored
    }
    return try result.get()
  }

  /// The record with `id`, or nil.
  package func record(id: String) throws(StoreError) -> ContentRecord? {
    try database.query("SELECT * FROM contents WHERE id = ?", [.text(id)])
      .first.map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// Every record in queue order (``ContentRecord/sequence``).
  package func all() throws(StoreError) -> [ContentRecord] {
    try database.query("SELECT * FROM contents ORDER BY sequence")
      .map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// The records in `state`, highest priority first, then first added first.
  package func records(inState state: ContentState) throws(StoreError) -> [ContentRecord] {
    try database.query(
      "SELECT * FROM contents WHERE state = ? ORDER BY priority DESC, sequence", [state.sqlValue]
    ).map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// The first record (in queue order) whose URL is `url`, or nil.
  package func record(url: String) throws(StoreError) -> ContentRecord? {
    try database.query(
      "SELECT * FROM contents WHERE url = ? ORDER BY sequence LIMIT 1", [.text(url)]
    )
    .first.map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// Every record whose URL is `url`, in queue order.
  package func records(url: String) throws(StoreError) -> [ContentRecord] {
    try database.query("SELECT * FROM contents WHERE url = ? ORDER BY sequence", [.text(url)])
      .map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// The first record (in queue order) of each of `urls` that has one, by URL, in one query:
  /// `add` of a thousand URLs looks them all up at once rather than one query each.
  package func firstRecords(urls: [String]) throws(StoreError) -> [String: ContentRecord] {
    guard !urls.isEmpty else { return [:] }
    let rows = try database.query(
      """
      SELECT * FROM contents WHERE url IN (SELECT value FROM json_each(?))
      ORDER BY sequence
      """, [.jsonArray(urls)])
    var first: [String: ContentRecord] = [:]
    for row in rows {
      let record = try Self.record(from: row)
      if first[record.url] == nil { first[record.url] = record }
    }
    return first
  }

  /// Up to `limit` records in `state` that may start now: not waiting for a retry due after
  /// `now`, not among `excluded` (those running already, say, so that a turn of a busy queue
  /// reads only the rows it may start); highest priority first, then first added first.
  package func runnable(
    state: ContentState, now: Date, limit: Int, excluding excluded: Set<String> = []
  ) throws(StoreError) -> [ContentRecord] {
    return try database.query(
      """
      SELECT * FROM contents WHERE state = ?
        AND (wait_reason IS NOT 'retry' OR retry_at IS NULL OR retry_at <= ?)
        AND id NOT IN (SELECT value FROM json_each(?))
      ORDER BY priority DESC, sequence LIMIT ?
      """,
      [
        state.sqlValue, .integer(StoredTime.milliseconds(now)), .jsonArray(excluded),
        .integer(Int64(limit)),
      ]
    ).map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// The records with `ids` (those that exist), by id, in one query: a batch of finished
  /// files is read at once rather than one query each.
  package func records(ids: [String]) throws(StoreError) -> [String: ContentRecord] {
    guard !ids.isEmpty else { return [:] }
    let records = try database.query(
      "SELECT * FROM contents WHERE id IN (SELECT value FROM json_each(?))", [.jsonArray(ids)]
    ).map { row throws(StoreError) in try Self.record(from: row) }
    return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// How many records are in `state`.
  package func count(inState state: ContentState) throws(StoreError) -> Int {
    Int(
      try database.query("SELECT COUNT(*) AS n FROM contents WHERE state = ?", [state.sqlValue])
        .first?.int64("n") ?? 0)
  }

  /// The records that carry a cleanup intent or sit in `state`, for recovery after a crash.
  package func needingRecovery(state: ContentState) throws(StoreError) -> [ContentRecord] {
    try database.query(
      """
      SELECT * FROM contents WHERE pending_cleanup = 1
      UNION SELECT * FROM contents WHERE state = ? ORDER BY sequence
      """, [state.sqlValue]
    ).map { row throws(StoreError) in try Self.record(from: row) }
  }

  /// Reads the record with `id`, lets `body` change it, and writes it back, in one
  /// transaction. When `body` throws, nothing is written and the error is rethrown.
  ///
  /// - Returns: The record as stored, or nil when there is no record with `id`.
  ///
  /// With `movingToEnd`, the record also gets the next ``ContentRecord/sequence``: it goes
  /// to the end of the queue, behind everything queued before it.
  @discardableResult
  package func update(
    id: String, movingToEnd: Bool = false, _ body: (inout ContentRecord) throws -> Void
  ) throws -> ContentRecord? {
    defer { didWrite() }
    return try database.transaction { connection -> ContentRecord? in
      let rows = try connection.query("SELECT * FROM contents WHERE id = ?", [.text(id)])
      guard let row = rows.first else { return nil }
      var record = try Self.record(from: row)
      try body(&record)
      if movingToEnd {
        let last = try connection.query("SELECT MAX(sequence) AS last FROM contents")
        record.sequence = (try last.first?.int64OrNil("last") ?? 0) + 1
      }
      record.id = id
      record.updatedAt = StoredTime.rounded(Date())
      try connection.execute(Self.upsertSQL, Self.arguments(record))
      return record
    }
  }

  /// Records progress: the hot path, one cached `UPDATE`. Does nothing for an unknown id,
  /// and nothing unless the content is `downloading` or `suspended` (the bytes a suspend
  /// kept): a save that comes late, after a cancel or a delete emptied the content, must not
  /// give it back bytes it no longer has.
  package func updateProgress(id: String, bytes: Int64, total: Int64?, totalIsEstimate: Bool)
    throws(StoreError)
  {
    try database.execute(
      """
      UPDATE contents SET bytes = ?, total = ?, total_is_estimate = ?, updated_at = ?
      WHERE id = ? AND state IN (?, ?)
      """,
      [
        .integer(bytes), SQLValue(total), .integer(totalIsEstimate ? 1 : 0),
        .integer(StoredTime.milliseconds(Date())), .text(id),
        ContentState.downloading.sqlValue, ContentState.suspended.sqlValue,
      ])
  }

  /// Deletes the record with `id`; does nothing when there is none.
  package func remove(id: String) throws(StoreError) {
    defer { didWrite() }
    let result = try database.writeTransaction { connection throws(StoreError) in
      try connection.execute("DELETE FROM contents WHERE id = ?", [.text(id)])
      try connection.execute("DELETE FROM content_piece_checks WHERE content_id = ?", [.text(id)])
      try connection.execute("DELETE FROM content_sources WHERE content_id = ?", [.text(id)])
    }
    try result.get()
  }

  /// A number that changes whenever another connection (another process) commits a change
  /// to the database (`PRAGMA data_version`): poll it to notice changes made elsewhere.
  package func externalChangeCounter() throws(StoreError) -> Int64 {
    try database.query("PRAGMA data_version").first?.int64("data_version") ?? 0
  }

  static let flatNameTakenSQL =
    "SELECT 1 AS one FROM contents WHERE flat_file = 1 AND file_name = ? COLLATE NOCASE LIMIT 1"

  /// The columns of a content row, in the order of ``arguments(_:)``.
  static let columns = [
    "id", "url", "title", "metadata", "file_name", "state", "priority", "sequence", "bytes",
    "total", "total_is_estimate", "expected_sha256", "last_error", "last_error_kind",
    "wait_reason", "retry_count", "retry_at", "pending_cleanup", "created_at", "updated_at",
    "options", "flat_file", "piece_checks", "source_reports",
  ]

  static let insertSQL =
    "INSERT INTO contents (\(columns.joined(separator: ", "))) VALUES ("
    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"

  /// An insert that updates the row of the same id in place. Not `INSERT OR REPLACE`: that
  /// deletes whatever row stands in the way of any unique index, so a record given another
  /// content's flat name would silently remove that content; here it is a constraint error.
  static let upsertSQL =
    insertSQL + " ON CONFLICT (id) DO UPDATE SET "
    + columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
}
