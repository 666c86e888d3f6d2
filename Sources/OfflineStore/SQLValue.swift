/// A value SQLite stores: one of its five storage classes.
///
/// Literals convert directly, so arguments read naturally:
///
/// ```swift
/// try database.execute("UPDATE t SET name = ?, size = ? WHERE id = ?", ["a", 42, 7])
/// ```
public enum SQLValue: Sendable, Hashable {
  /// SQL `NULL`.
  case null
  /// A signed 64-bit integer.
  case integer(Int64)
  /// A 64-bit floating-point number.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Raw bytes.
  case blob([UInt8])

  /// Creates an integer, or `NULL` when `value` is nil.
  public init(_ value: Int64?) {
    self = value.map(SQLValue.integer) ?? .null
  }

  /// Creates an integer, or `NULL` when `value` is nil.
  public init(_ value: Int?) {
    self = value.map { .integer(Int64($0)) } ?? .null
  }

  /// Creates a real, or `NULL` when `value` is nil.
  public init(_ value: Double?) {
    self = value.map(SQLValue.real) ?? .null
  }

  /// Creates text, or `NULL` when `value` is nil.
  public init(_ value: String?) {
    self = value.map(SQLValue.text) ?? .null
  }

  /// Creates an integer 1 or 0, or `NULL` when `value` is nil.
  public init(_ value: Bool?) {
    self = value.map { .integer($0 ? 1 : 0) } ?? .null
  }
}

extension SQLValue: ExpressibleByNilLiteral {
  /// Creates `NULL`.
  public init(nilLiteral: ()) { self = .null }
}

extension SQLValue: ExpressibleByIntegerLiteral {
  /// Creates an integer.
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
  /// Creates a real.
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByStringLiteral {
  /// Creates text.
  public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue: ExpressibleByBooleanLiteral {
  /// Creates an integer 1 or 0, as SQLite stores booleans.
  public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
