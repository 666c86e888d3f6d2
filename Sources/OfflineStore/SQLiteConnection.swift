import Foundation
import OfflineLocks

#if canImport(CSQLite)
  import CSQLite
#else
  import SQLite3  // Apple platforms: the SDK's
#endif

/// Owns one `sqlite3*` handle and its prepared statements; closes the handle in `deinit`.
///
/// Not Sendable and not thread-safe: the ``Database`` that owns it calls it only under its lock.
final class SQLiteConnection {
  /// Past this many cached statements the cache is emptied, so dynamic SQL cannot grow it forever.
  static let statementCacheLimit = 64

  let handle: OpaquePointer
  let path: String
  /// How many write transactions committed on this handle (SQLite's commit hook counts them).
  private(set) var commits = 0
  /// How many statements that only read ran in a transaction of their own (outside
  /// ``transaction(_:)``): each took and released SQLite's locks for itself.
  private(set) var lonelyReads = 0
  private var statements: [String: Statement] = [:]

  private init(handle: OpaquePointer, path: String) {
    self.handle = handle
    self.path = path
  }

  deinit {
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Opens (creating if needed) the database at `path` and configures it for the index.
  ///
  /// On a full disk, where the shared-memory file (`-shm`) of the write-ahead log cannot be made
  /// or sized, the connection opens again with the log's index in its own memory
  /// (`locking_mode=EXCLUSIVE` before the first read): reads work, and so do writes that fit
  /// in the space there is; other processes wait for it (busy timeout) while it is open.
  static func open(path: String, busyTimeout: Duration) throws(StoreError) -> SQLiteConnection {
    do {
      return try open(path: path, busyTimeout: busyTimeout, indexInMemory: false)
    } catch  where error.kind == .full {
      return try open(path: path, busyTimeout: busyTimeout, indexInMemory: true)
    }
  }

  private static func open(path: String, busyTimeout: Duration, indexInMemory: Bool)
    throws(StoreError) -> SQLiteConnection
  {
    var raw: OpaquePointer?
    let flags =
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    let code = sqlite3_open_v2(path, &raw, flags, nil)
    guard let raw else {
      let failure = code == SQLITE_OK ? SQLITE_NOMEM : code
      throw StoreError(code: failure, message: String(cString: sqlite3_errstr(failure)), path: path)
    }
    let connection = SQLiteConnection(handle: raw, path: path)  // closes the handle on throw
    guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    sqlite3_extended_result_codes(raw, 1)
    sqlite3_busy_timeout(raw, Self.milliseconds(busyTimeout))
    connection.countCommits()
    if indexInMemory { try connection.execute("PRAGMA locking_mode=EXCLUSIVE", []) }
    // Several processes opening a new store at once: switching it to WAL takes an exclusive
    // lock, and SQLite may answer busy without waiting (to avoid a deadlock). Seen as
    // "database is locked" from one of four concurrent `cache get`s; tried again, bounded.
    var attempt = 0
    while true {
      do {
        try connection.configure()
        return connection
      } catch  where error.kind == .busy && attempt < 100 {
        attempt += 1
        usleep(20_000)
      }
    }
  }

  /// Reads the schema (a file that is not a database fails here and stays untouched), then
  /// sets write-ahead logging, `synchronous=NORMAL` and foreign keys.
  private func configure() throws(StoreError) {
    _ = try query("PRAGMA schema_version", [])
    try execute("PRAGMA journal_mode=WAL", [])
    try execute("PRAGMA synchronous=NORMAL", [])
    try execute("PRAGMA foreign_keys=ON", [])
  }

  /// Counts every commit in ``commits``. The hook runs on the committing thread, which holds
  /// the owning ``Database``'s lock; the handle never outlives `self`, so the unretained
  /// pointer stays valid as long as SQLite can call it.
  private func countCommits() {
    sqlite3_commit_hook(
      handle,
      { context in
        guard let context else { return 0 }
        Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().commits += 1
        return 0  // 0: let the commit go on
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  private static func milliseconds(_ duration: Duration) -> Int32 {
    Int32(clamping: max(0, duration.inMilliseconds))
  }

  /// Runs `sql`; a single statement is cached and takes `arguments`, a script of several
  /// statements runs statement by statement and takes none.
  func execute(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) {
    if let statement = statements[sql] { return try run(statement, arguments) { _ in } }
    let text = sql.utf8CString
    var (compiled, next) = try compile(text, from: 0, sql: sql)
    if let statement = compiled, isBlank(text, from: next) {
      cache(statement)
      return try run(statement, arguments) { _ in }
    }
    guard arguments.isEmpty else {
      throw StoreError(
        kind: .misuse, message: "arguments need a single statement, but the SQL has several",
        sql: sql, path: path)
    }
    while let statement = compiled {
      try run(statement, []) { _ in }
      (compiled, next) = try compile(text, from: next, sql: sql)
    }
  }

  /// Runs one statement and returns its rows.
  func query(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> [Row] {
    let statement: Statement
    if let cached = statements[sql] {
      statement = cached
    } else {
      let text = sql.utf8CString
      let (compiled, next) = try compile(text, from: 0, sql: sql)
      guard let compiled, isBlank(text, from: next) else {
        throw StoreError(
          kind: .misuse, message: "a query takes exactly one statement", sql: sql, path: path)
      }
      cache(compiled)
      statement = compiled
    }
    var rows: [Row] = []
    let names = statement.columnNames
    try run(statement, arguments) { statement in
      rows.append(Row(columnNames: names, values: statement.currentValues(), sql: sql, path: path))
    }
    return rows
  }

  /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back when it throws.
  ///
  /// Errors of SQLite (begin, commit) are thrown; the body's own outcome comes back as a result.
  func transaction<T, E: Error>(_ body: () throws(E) -> T) throws(StoreError) -> Result<T, E> {
    try execute("BEGIN IMMEDIATE", [])
    let result: Result<T, E>
    do throws(E) {
      result = .success(try body())
    } catch {
      result = .failure(error)
    }
    switch result {
    case .success:
      do {
        try execute("COMMIT", [])
      } catch {
        rollbackIfNeeded()
        throw error
      }
    case .failure:
      rollbackIfNeeded()
    }
    return result
  }

  /// Rolls back the open transaction, if SQLite has not already done so after an error.
  private func rollbackIfNeeded() {
    guard sqlite3_get_autocommit(handle) == 0 else { return }
    try? execute("ROLLBACK", [])
  }

  /// The rowid of the most recent successful `INSERT` on this connection.
  var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// The number of rows the most recent `INSERT`, `UPDATE` or `DELETE` changed.
  var changes: Int { Int(sqlite3_changes(handle)) }

  /// An error for `code`, with SQLite's message for this connection.
  func error(_ code: Int32, sql: String?) -> StoreError {
    StoreError(
      code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path,
      systemErrno: sqlite3_system_errno(handle))
  }

  private func cache(_ statement: Statement) {
    if statements.count >= Self.statementCacheLimit { statements.removeAll() }
    statements[statement.sql] = statement
  }

  /// Binds, steps to the end calling `onRow` for each row, and resets the statement.
  private func run(
    _ statement: Statement, _ arguments: [SQLValue], onRow: (Statement) -> Void
  ) throws(StoreError) {
    defer { statement.reset() }
    guard arguments.count == statement.parameterCount else {
      throw StoreError(
        kind: .misuse,
        message: "the statement takes \(statement.parameterCount) arguments, "
          + "but \(arguments.count) were given",
        sql: statement.sql, path: path)
    }
    let bound = statement.bind(arguments)
    guard bound == SQLITE_OK else { throw error(bound, sql: statement.sql) }
    if sqlite3_get_autocommit(handle) != 0, sqlite3_stmt_readonly(statement.handle) != 0 {
      lonelyReads += 1
    }
    while true {
      let code = sqlite3_step(statement.handle)
      switch code {
      case SQLITE_ROW: onRow(statement)
      case SQLITE_DONE: return
      default: throw error(code, sql: statement.sql)
      }
    }
  }

  /// Compiles the first statement of `text` at byte `offset`; nil when only blanks remain.
  private func compile(
    _ text: ContiguousArray<CChar>, from offset: Int, sql: String
  ) throws(StoreError) -> (Statement?, next: Int) {
    var raw: OpaquePointer?
    var consumed = 0
    let code = text.withUnsafeBufferPointer { buffer -> Int32 in
      let start = buffer.baseAddress! + offset
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v3(
        handle, start, Int32(buffer.count - offset), 0, &raw, &tail)
      if let tail { consumed = tail - start }
      return code
    }
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
    return (raw.map { Statement(handle: $0, sql: sql) }, offset + consumed)
  }

  private func isBlank(_ text: ContiguousArray<CChar>, from offset: Int) -> Bool {
    text[offset...].allSatisfy { [0, 9, 10, 11, 12, 13, 32].contains($0) }
  }
}
