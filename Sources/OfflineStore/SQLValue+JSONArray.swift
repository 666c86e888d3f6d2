import Foundation

/// A list bound as one argument: statements read it with `json_each(?)`, so a thousand ids
/// make one query, not a thousand, and no statement grows with the list.
extension SQLValue {
  /// `texts` as the text of a JSON array of strings, for `... IN (SELECT value FROM
  /// json_each(?))`.
  static func jsonArray(_ texts: some Sequence<String>) -> SQLValue {
    .text("[" + texts.map(jsonString).joined(separator: ",") + "]")
  }

  /// `text` as a JSON string literal.
  private static func jsonString(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case _ where scalar.value < 0x20: quoted += String(format: "\\u%04x", scalar.value)
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }
}
