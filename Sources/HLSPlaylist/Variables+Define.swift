extension Variables {
  /// Reads an `EXT-X-DEFINE` tag (RFC 8216bis §4.4.2.3) on `line`; `text` is its attribute
  /// list. Its own quoted strings are not substituted.
  ///
  /// Exactly one of `NAME` (with `VALUE`), `IMPORT` and `QUERYPARAM` defines the variable:
  /// `IMPORT` takes the value of the multivariant playlist's variable of that name, and is not
  /// allowed in a multivariant playlist; `QUERYPARAM` takes the value of the query parameter
  /// of that name in `context.uri`, as written there (percent-encoding kept, so a token
  /// substituted into a URI means what it meant in the playlist's URL).
  ///
  /// - Throws: `PlaylistError` on `line` for a malformed tag, a name defined before, an
  ///   `IMPORT` or `QUERYPARAM` whose source is missing. Messages never hold a value.
  mutating func define(_ text: Substring?, line: Int) throws(PlaylistError) {
    var list = try AttributeList(text ?? "", line: line, tag: "EXT-X-DEFINE")
    let name = try list.quotedString("NAME")
    let imported = try list.quotedString("IMPORT")
    let parameter = try list.quotedString("QUERYPARAM")
    let given = [name, imported, parameter].compactMap { $0 }
    guard given.count == 1, let variable = given.first else {
      throw PlaylistError(
        line: line, message: "EXT-X-DEFINE needs exactly one of NAME, IMPORT and QUERYPARAM.")
    }
    guard Variables.isName(variable) else {
      let attribute = name != nil ? "NAME" : imported != nil ? "IMPORT" : "QUERYPARAM"
      throw PlaylistError(
        line: line,
        message: "EXT-X-DEFINE \(attribute) must be a variable name of letters, digits, - and _, "
          + "not \(variable.truncatedForMessage).")
    }
    let value: String
    if name != nil {
      guard let given = try list.quotedString("VALUE") else { throw list.missing("VALUE") }
      value = given
    } else if imported != nil {
      value = try importedValue(variable, line: line)
    } else {
      value = try queryValue(variable, line: line)
    }
    try define(variable, value, line: line)
  }

  private func importedValue(_ name: String, line: Int) throws(PlaylistError) -> String {
    guard !isMultivariant else {
      throw PlaylistError(
        line: line,
        message: "EXT-X-DEFINE IMPORT belongs in a media playlist; a multivariant playlist "
          + "has nothing to import from.")
    }
    guard let variables = context.multivariantVariables else {
      throw PlaylistError(
        line: line,
        message: "EXT-X-DEFINE IMPORT=\"\(name)\" needs the multivariant playlist that led to "
          + "this playlist, but it was read without one.")
    }
    guard let value = variables[name] else {
      throw PlaylistError(
        line: line,
        message: "EXT-X-DEFINE IMPORT=\"\(name)\": the multivariant playlist defines no "
          + "variable of that name.")
    }
    return value
  }

  private func queryValue(_ name: String, line: Int) throws(PlaylistError) -> String {
    guard let uri = context.uri else {
      throw PlaylistError(
        line: line,
        message: "EXT-X-DEFINE QUERYPARAM=\"\(name)\" needs the URI the playlist came from, "
          + "but it was read without one.")
    }
    guard let value = Self.queryParameter(name, in: uri) else {
      throw PlaylistError(
        line: line,
        message: "EXT-X-DEFINE QUERYPARAM=\"\(name)\": the playlist's URI has no query "
          + "parameter of that name.")
    }
    return value
  }

  /// The raw value of the first query parameter of `uri` named `name` (`name=value`, or
  /// `name` alone for an empty value), between `?` and `#`.
  static func queryParameter(_ name: String, in uri: String) -> String? {
    let utf8 = Substring(uri).utf8
    let end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
    guard let question = utf8[..<end].firstIndex(of: UInt8(ascii: "?")) else { return nil }
    let afterQuestion = utf8.index(after: question)
    for pair in utf8[afterQuestion..<end].split(
      separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
    {
      let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
      guard Substring(pair[..<equals]) == name else { continue }
      return equals == pair.endIndex ? "" : String(Substring(pair[pair.index(after: equals)...]))
    }
    return nil
  }
}
