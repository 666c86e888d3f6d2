extension PlaylistParser {
  /// The attribute list of tag `name` on `line`, with its variables substituted.
  static func attributes(
    _ value: Substring?, _ line: Line, _ name: Substring, _ variables: inout Variables
  ) throws(PlaylistError) -> AttributeList {
    var list = try AttributeList(value ?? "", line: line.number, tag: String(name))
    try list.substitute(&variables)
    return list
  }

  /// The URI of a URI line, with its variables substituted.
  ///
  /// - Throws: `PlaylistError` for an unresolved reference, or when substitution leaves the
  ///   line empty or starting with `#` (it would read back as a tag or a comment).
  static func uri(_ line: Line, _ variables: inout Variables) throws(PlaylistError) -> String {
    guard let substituted = try variables.substitute(line.text, line: line.number) else {
      return String(line.text)
    }
    let uri = substituted.trimmingBlanks
    guard let first = uri.utf8.first, first != UInt8(ascii: "#") else {
      throw PlaylistError(
        line: line.number,
        message: "This URI line is empty or starts with # once its variables are substituted.")
    }
    return uri
  }

  /// A tag the parser does not model, kept verbatim unless it is an attribute list whose
  /// quoted-string or hexadecimal-sequence values hold variable references: then it is
  /// rewritten with them substituted.
  static func unknownTag(
    _ line: Line, _ name: Substring, _ value: Substring?, _ variables: inout Variables
  ) throws(PlaylistError) -> String {
    guard let value, line.text.utf8.contains(UInt8(ascii: "$")),
      var list = try? AttributeList(value, line: line.number, tag: String(name)),
      try list.substitute(&variables)
    else { return String(line.text) }
    return "#" + name + ":" + list.text
  }
}
