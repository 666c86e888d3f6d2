#if canImport(CSQLite)
  import CSQLite
#else
  import SQLite3  // Apple platforms: the SDK's
#endif

/// Owns one prepared `sqlite3_stmt*` and finalizes it in `deinit`.
///
/// Not Sendable: it is used only by the ``SQLiteConnection`` that compiled it, under the lock of
/// the ``Database`` that owns that connection.
final class Statement {
  let handle: OpaquePointer
  let sql: String
  private(set) lazy var columnNames: [String] = (0..<sqlite3_column_count(handle)).map {
    sqlite3_column_name(handle, $0).map { String(cString: $0) } ?? ""
  }

  init(handle: OpaquePointer, sql: String) {
    self.handle = handle
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// The number of `?` parameters the statement takes.
  var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

  /// Binds `arguments` to the parameters in order; returns the first SQLite code that is not OK.
  func bind(_ arguments: [SQLValue]) -> Int32 {
    for (offset, argument) in arguments.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch argument {
      case .null:
        code = sqlite3_bind_null(handle, index)
      case .integer(let value):
        code = sqlite3_bind_int64(handle, index, value)
      case .real(let value):
        code = sqlite3_bind_double(handle, index, value)
      case .text(let value):
        var text = value
        code = text.withUTF8 { bytes in
          // An empty buffer may have no base address, which SQLite would bind as NULL.
          guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_text(handle, index, "", 0, ok_sqlite_transient())
          }
          return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text(handle, index, $0, Int32(bytes.count), ok_sqlite_transient())
          }
        }
      case .blob(let value):
        code = value.withUnsafeBytes { bytes in
          guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_zeroblob(handle, index, 0)
          }
          return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), ok_sqlite_transient())
        }
      }
      guard code == SQLITE_OK else { return code }
    }
    return SQLITE_OK
  }

  /// The values of the current row, after `sqlite3_step` returned `SQLITE_ROW`.
  func currentValues() -> [SQLValue] {
    (0..<sqlite3_column_count(handle)).map { column in
      switch sqlite3_column_type(handle, column) {
      case SQLITE_INTEGER:
        return .integer(sqlite3_column_int64(handle, column))
      case SQLITE_FLOAT:
        return .real(sqlite3_column_double(handle, column))
      case SQLITE_TEXT:
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let text = sqlite3_column_text(handle, column) else { return .text("") }
        return .text(
          String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
      case SQLITE_BLOB:
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let bytes = sqlite3_column_blob(handle, column), count > 0 else { return .blob([]) }
        return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
      default:
        return .null
      }
    }
  }

  /// Makes the statement ready to run again and drops its bindings.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }
}
