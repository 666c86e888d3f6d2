/// A value that one column stores as itself: written as an ``SQLValue``, read back or refused.
///
/// An enumeration whose raw value is a `String` gets the conformance for free (its raw value
/// is the text stored), so a record's field can be the enumeration itself rather than a
/// string that every reader parses again. A value read back that matches no case is a
/// ``StoreError`` of kind ``StoreError/Code-swift.struct/decoding`` naming the column and the value,
/// never a default.
///
/// ```swift
/// enum Color: String, StoredValue { case red, green }
/// let color: Color = try row.value("color")
/// ```
public protocol StoredValue: Sendable {
  /// The value as the column stores it.
  var sqlValue: SQLValue { get }
  /// The value stored as `sqlValue`, or nil when `sqlValue` stands for none.
  init?(sqlValue: SQLValue)
}

extension StoredValue where Self: RawRepresentable, RawValue == String {
  /// The raw value, as text.
  public var sqlValue: SQLValue { .text(rawValue) }

  /// The case whose raw value is the text stored; nil for anything else.
  public init?(sqlValue: SQLValue) {
    guard case .text(let text) = sqlValue else { return nil }
    self.init(rawValue: text)
  }
}

extension Row {
  /// The value in `column`.
  ///
  /// - Throws: ``StoreError`` (``StoreError/Code-swift.struct/decoding``) naming the column and what it
  ///   holds when that is `NULL` or no value of `T`.
  public func value<T: StoredValue>(_ column: String) throws(StoreError) -> T {
    guard let value: T = try valueOrNil(column) else {
      throw unknownValue(column, .null, as: T.self)
    }
    return value
  }

  /// The value in `column`, or nil when it is `NULL`.
  ///
  /// - Throws: ``StoreError`` (``StoreError/Code-swift.struct/decoding``) naming the column and what it
  ///   holds when that is no value of `T`.
  public func valueOrNil<T: StoredValue>(_ column: String) throws(StoreError) -> T? {
    guard let stored = self[column] else {
      throw StoreError(
        kind: .decoding, message: "the result has no column \"\(column)\"", sql: sql, path: path)
    }
    if case .null = stored { return nil }
    guard let value = T(sqlValue: stored) else { throw unknownValue(column, stored, as: T.self) }
    return value
  }

  func unknownValue<T>(_ column: String, _ stored: SQLValue, as type: T.Type) -> StoreError {
    let shown =
      switch stored {
      case .null: "NULL"
      case .integer(let value): "\(value)"
      case .real(let value): "\(value)"
      case .text(let text): "'\(text.prefix(80))'"
      case .blob(let bytes): "a blob of \(bytes.count) bytes"
      }
    return StoreError(
      kind: .decoding,
      message: "column \"\(column)\" holds \(shown), which is no \(T.self) this version knows",
      sql: sql, path: path)
  }
}
