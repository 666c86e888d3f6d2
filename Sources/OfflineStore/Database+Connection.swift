#if canImport(CSQLite)
  import CSQLite
#else
  import SQLite3  // Apple platforms: the SDK's
#endif

extension Database {
  /// The connection inside a ``Database/transaction(_:)``: runs statements without taking the
  /// database's lock again.
  ///
  /// It is valid only while the transaction body runs. Keep it there: once the body has
  /// returned, every call throws ``StoreError/Code-swift.struct/misuse``. It is not Sendable, so it cannot
  /// leave the thread the transaction runs on.
  public final class Connection {
    private let connection: SQLiteConnection
    var isActive = true

    init(_ connection: SQLiteConnection) {
      self.connection = connection
    }

    /// The path of the database file.
    public var path: String { connection.path }

    /// Runs one SQL statement with `arguments` bound to its `?` parameters, or a script of
    /// several statements (without arguments), inside the transaction.
    public func execute(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) {
      try checkActive(sql)
      try connection.execute(sql, arguments)
    }

    /// Runs one SQL statement with `arguments` bound to its `?` parameters and returns all rows.
    public func query(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> [Row] {
      try checkActive(sql)
      return try connection.query(sql, arguments)
    }

    /// The rowid of the most recent successful `INSERT` in this transaction.
    public var lastInsertRowID: Int64 { connection.lastInsertRowID }

    /// The number of rows the most recent `INSERT`, `UPDATE` or `DELETE` changed.
    public var changes: Int { connection.changes }

    private func checkActive(_ sql: String) throws(StoreError) {
      guard isActive else {
        throw StoreError(
          kind: .misuse,
          message: "a transaction's Connection was used after the transaction ended",
          sql: sql, path: connection.path)
      }
    }
  }
}
