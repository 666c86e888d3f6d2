import Foundation

/// The entries of a store's file cache, in the `cache_entries` table: one row per cached
/// file, with its size, validators and last use.
///
/// Safe to share: every call goes through the ``Database`` lock. The hot paths are
/// ``entry(key:)`` (one cached primary-key `SELECT`) and ``recordUses(_:)``, which writes a
/// batch of last-use times in one transaction so a cache hit never needs a write of its own.
///
/// ```swift
/// let table = try CacheTable(database: index.database)
/// try table.save(CacheTable.Entry(key: key, url: url.absoluteString, size: 1024))
/// let oldest = try table.leastRecentlyUsed(limit: 100)
/// ```
package final class CacheTable: Sendable {
  /// The migrations of the table, in order; append, never edit.
  package static let migrations: [Migration] = [
    Migration("cache.v1.create") { connection throws(StoreError) in
      try connection.execute(
        """
        CREATE TABLE cache_entries (
          key TEXT PRIMARY KEY NOT NULL,
          url TEXT NOT NULL,
          size INTEGER NOT NULL CHECK (size >= 0),
          etag TEXT,
          last_modified TEXT,
          validated_at INTEGER NOT NULL,
          last_used_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX cache_entries_lru ON cache_entries (last_used_at, key);
        CREATE TABLE cache_settings (
          name TEXT PRIMARY KEY NOT NULL,
          value INTEGER
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

  /// The entry with `key`, or nil.
  package func entry(key: String) throws(StoreError) -> Entry? {
    try database.query("SELECT * FROM cache_entries WHERE key = ?", [.text(key)])
      .first.map { row throws(StoreError) in try Self.entry(from: row) }
  }

  /// Inserts `entry`, or replaces the entry with the same key.
  package func save(_ entry: Entry) throws(StoreError) {
    try database.execute(Self.upsertSQL, Self.arguments(entry))
  }

  /// Inserts or replaces `entries` in one transaction (fast for many).
  package func save(_ entries: [Entry]) throws(StoreError) {
    try database.writeTransaction { connection throws(StoreError) in
      for entry in entries { try connection.execute(Self.upsertSQL, Self.arguments(entry)) }
    }.get()
  }

  /// Deletes the entries with `keys` in one transaction; unknown keys are ignored.
  package func remove(keys: [String]) throws(StoreError) {
    guard !keys.isEmpty else { return }
    try database.writeTransaction { connection throws(StoreError) in
      for key in keys {
        try connection.execute("DELETE FROM cache_entries WHERE key = ?", [.text(key)])
      }
    }.get()
  }

  /// Records last uses, key to time, in one transaction. A time never moves backwards, and
  /// keys without an entry (evicted meanwhile) are ignored.
  package func recordUses(_ uses: [String: Date]) throws(StoreError) {
    guard !uses.isEmpty else { return }
    try database.writeTransaction { connection throws(StoreError) in
      for (key, date) in uses {
        try connection.execute(
          "UPDATE cache_entries SET last_used_at = MAX(last_used_at, ?) WHERE key = ?",
          [.integer(StoredTime.milliseconds(date)), .text(key)])
      }
    }.get()
  }

  /// Up to `limit` entries, least recently used first, leaving out `excluding`.
  package func leastRecentlyUsed(limit: Int, excluding: String? = nil) throws(StoreError)
    -> [Entry]
  {
    try database.query(
      """
      SELECT * FROM cache_entries WHERE key IS NOT ?
      ORDER BY last_used_at, key LIMIT ?
      """, [SQLValue(excluding), .integer(Int64(limit))]
    ).map { row throws(StoreError) in try Self.entry(from: row) }
  }

  /// Every entry, most recently used first.
  package func all() throws(StoreError) -> [Entry] {
    try database.query("SELECT * FROM cache_entries ORDER BY last_used_at DESC, key")
      .map { row throws(StoreError) in try Self.entry(from: row) }
  }

  /// The number of entries and the sum of their sizes.
  package func totals() throws(StoreError) -> (count: Int, bytes: Int64) {
    let row = try database.query(
      "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM cache_entries"
    ).first
    return (Int(try row?.int64("n") ?? 0), try row?.int64("bytes") ?? 0)
  }

  /// Deletes every entry.
  package func removeAll() throws(StoreError) {
    try database.execute("DELETE FROM cache_entries")
  }

  /// The size limit saved for the store's cache (`offline cache limit`), or nil.
  package func storedSizeLimit() throws(StoreError) -> Int64? {
    try database.query("SELECT value FROM cache_settings WHERE name = 'size_limit'")
      .first?.int64OrNil("value")
  }

  /// Saves the store's cache size limit, or forgets it when `bytes` is nil.
  package func setStoredSizeLimit(_ bytes: Int64?) throws(StoreError) {
    guard let bytes else {
      try database.execute("DELETE FROM cache_settings WHERE name = 'size_limit'")
      return
    }
    try database.execute(
      "INSERT OR REPLACE INTO cache_settings (name, value) VALUES ('size_limit', ?)",
      [.integer(bytes)])
  }

  /// Bytes the whole store holds, as the index knows them: the cache's entries and the
  /// offline contents' files (downloaded or partial), for a quota on the store.
  package func storeUsage() throws(StoreError) -> StoreUsage {
    let cache = try totals().bytes
    let content =
      try database.query("SELECT COALESCE(SUM(bytes), 0) AS bytes FROM contents")
      .first?.int64("bytes") ?? 0
    return StoreUsage(cacheBytes: cache, contentBytes: content)
  }

  private static let upsertSQL = """
    INSERT OR REPLACE INTO cache_entries (key, url, size, etag, last_modified, validated_at,
      last_used_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    """
}
