import HexDigits

extension AttributeList {
  /// Replaces the variable references of every quoted-string value and every
  /// hexadecimal-sequence value (an unquoted one starting with `0x` or `0X`), where
  /// RFC 8216bis §4.3 substitutes them; other values are left as written.
  ///
  /// - Returns: Whether any value changed.
  /// - Throws: `PlaylistError` for a reference `variables` cannot resolve, or a
  ///   hexadecimal-sequence that substitution left with other characters than hex digits.
  @discardableResult
  mutating func substitute(_ variables: inout Variables) throws(PlaylistError) -> Bool {
    var changed = false
    for index in entries.indices {
      let entry = entries[index]
      if entry.isQuoted {
        let inner = Substring(entry.raw.utf8.dropFirst().dropLast())
        guard let value = try variables.substitute(inner, line: line) else { continue }
        replaceRaw(at: index, with: "\"" + value + "\"")
        changed = true
      } else if Self.isHexadecimalPrefix(entry.raw) {
        guard let value = try variables.substitute(entry.raw, line: line) else { continue }
        guard Self.isHexadecimalSequence(value) else {
          throw PlaylistError(
            line: line,
            message: "\(tag) attribute \(entry.name) is not 0x and hexadecimal digits once its "
              + "variables are substituted.")
        }
        replaceRaw(at: index, with: value)
        changed = true
      }
    }
    return changed
  }

  /// The attribute list as text, `NAME=VALUE` pairs joined by commas, values as held.
  var text: String {
    entries.map { $0.name + "=" + $0.raw }.joined(separator: ",")
  }

  private static func isHexadecimalPrefix(_ text: Substring) -> Bool {
    text.utf8.starts(with: "0x".utf8) || text.utf8.starts(with: "0X".utf8)
  }

  /// Whether `text` is a hexadecimal-sequence (RFC 8216 §4.2): `0x` or `0X`, then one or
  /// more hexadecimal digits.
  private static func isHexadecimalSequence(_ text: String) -> Bool {
    let digits = Substring(text).utf8.dropFirst(2)
    return isHexadecimalPrefix(Substring(text)) && ASCIIHex.isDigits(Substring(digits))
  }
}
