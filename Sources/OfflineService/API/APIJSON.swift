import Foundation
import OfflineKit

/// Encodes API values: sorted keys, so answers are stable.
enum APIJSON {
  static func encode<T: Encodable>(_ value: T) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)) ?? Data("null".utf8)
  }

  /// An error answer: `{"error": sentence, "kind": name, "state": state}`.
  static func error(_ status: Int, _ message: String, kind: String, state: OfflineState? = nil)
    -> HTTPResponse
  {
    .json(status, encode(APIErrorJSON(error: message, kind: kind, state: state?.rawValue)))
  }
}
