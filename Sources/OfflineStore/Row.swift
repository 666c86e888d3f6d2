/// One row of a query result, with typed accessors by column name.
///
/// Accessors without `OrNil` throw a ``StoreError`` of kind ``StoreError/Code-swift.struct/decoding`` when
/// the column is missing, `NULL`, or of another type; the `OrNil` variants return nil for
/// `NULL` and throw for the rest.
///
/// ```swift
/// for row in try database.query("SELECT offset, etag FROM t") {
///   let offset = try row.int64("offset")
///   let etag = try row.stringOrNil("etag")
/// }
/// ```
public struct Row: Sendable, Equatable {
  /// The column names, in the order of the `SELECT`.
  public let columnNames: [String]
  /// The values, in the same order as ``columnNames``.
  public let values: [SQLValue]
  // Context for decoding errors; not part of equality.
  let sql: String
  let path: String

  init(columnNames: [String], values: [SQLValue], sql: String, path: String) {
    self.columnNames = columnNames
    self.values = values
    self.sql = sql
    self.path = path
  }

  /// The value of the first column with this name, or nil when there is no such column.
  public subscript(_ column: String) -> SQLValue? {
    columnNames.firstIndex(of: column).map { values[$0] }
  }

  /// Two rows are equal when they have the same columns and values.
  public static func == (lhs: Row, rhs: Row) -> Bool {
    lhs.columnNames == rhs.columnNames && lhs.values == rhs.values
  }

  /// The integer in `column`.
  public func int64(_ column: String) throws(StoreError) -> Int64 {
    try required(column, int64OrNil(column))
  }

  /// The integer in `column`, or nil when it is `NULL`.
  public func int64OrNil(_ column: String) throws(StoreError) -> Int64? {
    switch try value(column) {
    case .null: return nil
    case .integer(let value): return value
    case let other: throw mismatch(column, expected: "an integer", found: other)
    }
  }

  /// The number in `column`; integers are converted.
  public func double(_ column: String) throws(StoreError) -> Double {
    try required(column, doubleOrNil(column))
  }

  /// The number in `column`, or nil when it is `NULL`; integers are converted.
  public func doubleOrNil(_ column: String) throws(StoreError) -> Double? {
    switch try value(column) {
    case .null: return nil
    case .real(let value): return value
    case .integer(let value): return Double(value)
    case let other: throw mismatch(column, expected: "a number", found: other)
    }
  }

  /// The text in `column`.
  public func string(_ column: String) throws(StoreError) -> String {
    try required(column, stringOrNil(column))
  }

  /// The text in `column`, or nil when it is `NULL`.
  public func stringOrNil(_ column: String) throws(StoreError) -> String? {
    switch try value(column) {
    case .null: return nil
    case .text(let value): return value
    case let other: throw mismatch(column, expected: "text", found: other)
    }
  }

  /// The bytes in `column`.
  public func blob(_ column: String) throws(StoreError) -> [UInt8] {
    try required(column, blobOrNil(column))
  }

  /// The bytes in `column`, or nil when it is `NULL`.
  public func blobOrNil(_ column: String) throws(StoreError) -> [UInt8]? {
    switch try value(column) {
    case .null: return nil
    case .blob(let value): return value
    case let other: throw mismatch(column, expected: "a blob", found: other)
    }
  }

  private func value(_ column: String) throws(StoreError) -> SQLValue {
    guard let value = self[column] else {
      throw StoreError(
        kind: .decoding, message: "the result has no column \"\(column)\"", sql: sql, path: path)
    }
    return value
  }

  private func required<T>(_ column: String, _ value: T?) throws(StoreError) -> T {
    guard let value else { throw mismatch(column, expected: "a value", found: .null) }
    return value
  }

  private func mismatch(_ column: String, expected: String, found: SQLValue) -> StoreError {
    let kind =
      switch found {
      case .null: "NULL"
      case .integer: "an integer"
      case .real: "a real"
      case .text: "text"
      case .blob: "a blob"
      }
    return StoreError(
      kind: .decoding, message: "column \"\(column)\" holds \(kind), not \(expected)", sql: sql,
      path: path)
  }
}
