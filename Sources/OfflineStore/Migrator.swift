import Foundation

/// Applies named migrations in order, each once, each in its own transaction.
///
/// Applied names are recorded in `schema_migrations(name TEXT PRIMARY KEY, applied_at REAL)` in
/// the same transaction as the migration itself, so a migration is either fully applied and
/// recorded, or, when it throws, not applied at all. Names already recorded are skipped, so
/// calling ``migrate(_:)`` on every launch is cheap. Names the database knows but the migrator
/// does not (written by a newer version of the app) are left alone.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.append(Migration("notes.v1.create") { connection throws(StoreError) in
///   try connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
/// })
/// try migrator.migrate(database)
/// ```
public struct Migrator: Sendable {
  /// The migrations, in the order they are applied.
  public private(set) var migrations: [Migration]

  /// Creates a migrator with `migrations`, to be applied in this order.
  public init(_ migrations: [Migration] = []) {
    self.migrations = migrations
  }

  /// Adds `migration` after the others.
  public mutating func append(_ migration: Migration) {
    migrations.append(migration)
  }

  /// Adds `migrations` after the others, in order.
  public mutating func append(contentsOf migrations: [Migration]) {
    self.migrations.append(contentsOf: migrations)
  }

  /// Applies, in order, every migration whose name `database` has not recorded yet.
  ///
  /// - Throws: ``StoreError/Code-swift.struct/misuse`` when two migrations share a name (nothing is applied);
  ///   otherwise the first error a migration or SQLite reports. Migrations before the failing
  ///   one stay applied; the failing one leaves nothing behind.
  public func migrate(_ database: Database) throws(StoreError) {
    // Another process migrating the same new store may hold the lock past SQLite's own
    // deadlock-avoiding busy answers: tried again, bounded (about 2 s).
    var attempt = 0
    while true {
      do {
        return try migrateOnce(database)
      } catch  where error.kind == .busy && attempt < 100 {
        attempt += 1
        usleep(20_000)
      }
    }
  }

  private func migrateOnce(_ database: Database) throws(StoreError) {
    var seen = Set<String>()
    for migration in migrations where !seen.insert(migration.name).inserted {
      throw StoreError(
        kind: .misuse, message: "two migrations are named \"\(migration.name)\"", sql: nil,
        path: database.path)
    }
    try database.execute(
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (
        name TEXT PRIMARY KEY NOT NULL,
        applied_at REAL
      )
      """)
    let applied = Set(try appliedMigrations(in: database))
    for migration in migrations where !applied.contains(migration.name) {
      try database.writeTransaction { connection throws(StoreError) in
        // Another process may have applied it since we looked.
        let recorded = try connection.query(
          "SELECT 1 FROM schema_migrations WHERE name = ?", [.text(migration.name)])
        guard recorded.isEmpty else { return }
        try migration.apply(connection)
        try connection.execute(
          "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
          [.text(migration.name), .real(Date().timeIntervalSince1970)])
      }.get()
    }
  }

  /// The names of the migrations `database` has recorded, in the order they were applied.
  public func appliedMigrations(in database: Database) throws(StoreError) -> [String] {
    let exists = try database.query(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    guard !exists.isEmpty else { return [] }
    return try database.query("SELECT name FROM schema_migrations ORDER BY applied_at, rowid")
      .map { row throws(StoreError) in try row.string("name") }
  }
}
