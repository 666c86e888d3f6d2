/// One named, append-only change to the schema, applied once per database by a ``Migrator``.
///
/// Never edit or rename a migration that has shipped: databases remember the names they have
/// applied. To change the schema again, append a new migration. Spell the closure's error type,
/// `{ connection throws(StoreError) in`: Swift does not infer typed throws for closures.
///
/// ```swift
/// let createNotes = Migration("notes.v1.create") { connection throws(StoreError) in
///   try connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
/// }
/// ```
public struct Migration: Sendable {
  /// The unique name the database records once the migration has been applied.
  public let name: String
  /// Changes the schema; runs inside the transaction that records ``name``.
  public let apply: @Sendable (Database.Connection) throws(StoreError) -> Void

  /// Creates a migration.
  ///
  /// - Parameters:
  ///   - name: A unique name, by convention `feature.vN.what`, such as `transfers.v1.create`.
  ///   - apply: Changes the schema through the connection; throwing rolls everything back.
  public init(
    _ name: String, apply: @escaping @Sendable (Database.Connection) throws(StoreError) -> Void
  ) {
    self.name = name
    self.apply = apply
  }
}
