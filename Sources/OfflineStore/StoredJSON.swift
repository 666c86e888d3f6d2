import Foundation

/// A `Codable` value that one column stores as JSON text, such as a content's download
/// options: OfflineKit defines the value, the store keeps it and checks it is JSON.
///
/// Text that is not JSON is refused when the row is read (a ``StoreError`` naming the
/// column); JSON that is not the type asked for is refused by ``decoded(as:)``. Neither is
/// replaced by a default.
public struct StoredJSON: Sendable, Equatable, StoredValue {
  /// The JSON text, as stored.
  public let text: String

  /// Encodes `value`.
  ///
  /// - Throws: ``StoreError`` (``StoreError/Code-swift.struct/decoding``) when `value` cannot be encoded.
  public init<T: Encodable>(encoding value: T) throws(StoreError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    do {
      text = String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      throw StoreError(
        kind: .decoding, message: "\(T.self) cannot be stored as JSON: \(error)",
        sql: nil, path: "")
    }
  }

  /// `text`, when it is JSON; nil otherwise.
  public init?(text: String) {
    guard JSONTextCheck.isJSON(text) else { return nil }
    self.text = text
  }

  /// The JSON text.
  public var sqlValue: SQLValue { .text(text) }

  /// Text that is JSON; nil for anything else.
  public init?(sqlValue: SQLValue) {
    guard case .text(let text) = sqlValue else { return nil }
    self.init(text: text)
  }

  /// The value the JSON holds.
  ///
  /// - Throws: ``StoreError`` (``StoreError/Code-swift.struct/decoding``) quoting the text when the JSON
  ///   is no `T`.
  public func decoded<T: Decodable>(as type: T.Type) throws(StoreError) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    } catch {
      throw StoreError(
        kind: .decoding,
        message: "the JSON '\(text.prefix(80))' is no \(T.self) this version knows: \(error)",
        sql: nil, path: "")
    }
  }
}
