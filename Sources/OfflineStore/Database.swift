import Foundation
import OfflineLocks
import Synchronization

#if canImport(CSQLite)
  import CSQLite
#else
  import SQLite3  // Apple platforms: the SDK's
#endif

// @unchecked Sendable is sound: `connection`, the only mutable state, is reached only while
// `lock` is held (see `withConnection`), and the `Connection` handed to a transaction body is not
// Sendable and refuses to run once the body has returned.

/// One connection to a SQLite database file, safe to share between threads and tasks.
///
/// Every call takes the connection's lock for its duration, so calls from several threads run one
/// after another. Calls are synchronous and short; from an actor, call them directly, they do not
/// suspend. The connection is opened in write-ahead-log mode with `synchronous=NORMAL`, foreign
/// keys on, and a busy timeout; it is closed when the `Database` is released. Prepared statements
/// are cached by their SQL text, so repeating the same SQL with new arguments is cheap.
///
/// ```swift
/// let database = try Database(path: "/tmp/index.sqlite")
/// try database.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT)")
/// let id = try database.transaction { connection in
///   try connection.execute("INSERT INTO notes (body) VALUES (?)", ["hello"])
///   return connection.lastInsertRowID
/// }
/// let rows = try database.query("SELECT body FROM notes WHERE id = ?", [.integer(id)])
/// ```
public final class Database: @unchecked Sendable {
  /// The path of the database file.
  public let path: String
  private let lock = Locked<Void>(())
  /// The thread holding `lock`, or 0; lets a reentrant call fail instead of deadlocking.
  private let lockOwner = Atomic<UInt>(0)
  private let connection: SQLiteConnection

  /// Opens the database at `path`, creating the file if it does not exist.
  ///
  /// The file is read before anything is written, so a file that is not a SQLite database fails
  /// here with ``StoreError/Code-swift.struct/notADatabase`` and is left as it was.
  ///
  /// - Parameters:
  ///   - path: The path of the database file; its directory must exist.
  ///   - busyTimeout: How long a statement waits for another connection's lock before it fails
  ///     with ``StoreError/Code-swift.struct/busy``.
  public init(path: String, busyTimeout: Duration = .seconds(5)) throws(StoreError) {
    self.path = path
    self.connection = try SQLiteConnection.open(path: path, busyTimeout: busyTimeout)
  }

  /// Runs one SQL statement with `arguments` bound to its `?` parameters, or a script of several
  /// statements separated by semicolons (without arguments).
  ///
  /// Rows the statement returns are read and dropped; use ``query(_:_:)`` to keep them.
  public func execute(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) {
    try withConnection(sql) { connection throws(StoreError) in
      try connection.execute(sql, arguments)
    }
  }

  /// Runs one SQL statement with `arguments` bound to its `?` parameters and returns all rows.
  public func query(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> [Row] {
    try withConnection(sql) { connection throws(StoreError) in
      try connection.query(sql, arguments)
    }
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) and commits when it returns.
  ///
  /// When `body` throws, the transaction is rolled back and the body's error is rethrown. Inside
  /// `body`, use the `Connection` it receives, not this `Database`: the lock is held for the whole
  /// transaction, and a call on the `Database` from inside fails with ``StoreError/Code-swift.struct/misuse``
  /// rather than deadlock. Other threads wait until the transaction ends.
  ///
  /// - Returns: What `body` returns.
  /// - Throws: The error of `body`, or a ``StoreError`` when beginning or committing fails (for
  ///   example ``StoreError/Code-swift.struct/busy`` when another process holds the write lock past the busy
  ///   timeout).
  public func transaction<T>(_ body: (Connection) throws -> T) throws -> T {
    try writeTransaction(body).get()
  }

  /// Runs `body` in a write transaction; SQLite's errors are thrown, the body's outcome returned.
  func writeTransaction<T, E: Error>(
    _ body: (Connection) throws(E) -> T
  ) throws(StoreError) -> Result<T, E> {
    try withConnection("BEGIN IMMEDIATE") { connection throws(StoreError) in
      let handle = Connection(connection)
      defer { handle.isActive = false }
      return try connection.transaction { () throws(E) -> T in try body(handle) }
    }
  }

  /// The rowid of the most recent successful `INSERT` on this connection, by any thread.
  ///
  /// Another thread may run a statement between your `INSERT` and this read; inside a
  /// ``transaction(_:)`` read ``Connection/lastInsertRowID`` instead.
  public var lastInsertRowID: Int64 {
    withConnectionState { $0.lastInsertRowID }
  }

  /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE` on this
  /// connection, by any thread.
  ///
  /// Another thread may run a statement in between; inside a ``transaction(_:)`` read
  /// ``Connection/changes`` instead.
  public var changes: Int {
    withConnectionState { $0.changes }
  }

  /// How many write transactions this connection has committed since it opened (a statement
  /// outside ``transaction(_:)`` that writes is one); shows how a caller's writes batch.
  public var commitCount: Int {
    withConnectionState { $0.commits }
  }

  /// How many statements that only read ran in a transaction of their own (not inside
  /// ``transaction(_:)``) on this connection since it opened: each takes and releases
  /// SQLite's locks for itself, so this shows how a caller's reads batch.
  public var lonelyReadCount: Int {
    withConnectionState { $0.lonelyReads }
  }

  /// Reads connection state under the lock, or directly when this thread already holds it.
  private func withConnectionState<T: Sendable>(_ body: (SQLiteConnection) -> T) -> T {
    if lockOwner.load(ordering: .relaxed) == Self.currentThread() { return body(connection) }
    return lock.withLock { _ in body(connection) }
  }

  /// Runs `body` with the connection while holding the lock; a reentrant call throws.
  private func withConnection<T>(
    _ sql: String, _ body: (SQLiteConnection) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    let thread = Self.currentThread()
    guard lockOwner.load(ordering: .relaxed) != thread else {
      throw StoreError(
        kind: .misuse,
        message: "the Database was called from inside its own transaction; "
          + "use the Connection passed to the transaction body",
        sql: sql, path: path)
    }
    var result: Result<T, StoreError>?
    lock.withLock { _ in
      lockOwner.store(thread, ordering: .relaxed)
      defer { lockOwner.store(0, ordering: .relaxed) }
      result = Result { () throws(StoreError) -> T in try body(connection) }
    }
    return try result!.get()
  }

  private static func currentThread() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}
