/// An attribute list (RFC 8216 §4.2) split into names and raw values, with typed accessors
/// that throw a `PlaylistError` naming the line and the attribute.
struct AttributeList {
  /// One `NAME=VALUE` pair; `raw` keeps the quotes of a quoted string.
  struct Entry {
    var name: String
    var raw: Substring
    var isQuoted: Bool
  }

  private(set) var entries: [Entry] = []
  /// The names the typed accessors have read; the rest are `otherAttributes`.
  private var known: Set<String> = []
  let line: Int
  let tag: String

  /// Splits `text` (everything after the tag's colon) into entries.
  ///
  /// Whitespace around names and unquoted values is ignored; a trailing comma is accepted.
  init(_ text: Substring, line: Int, tag: String) throws(PlaylistError) {
    self.line = line
    self.tag = tag
    let bytes = text.utf8
    var index = bytes.startIndex
    func skipBlanks() {
      while index < bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 {
        index = bytes.index(after: index)
      }
    }
    while true {
      skipBlanks()
      guard index < bytes.endIndex else { break }
      let nameStart = index
      while index < bytes.endIndex, bytes[index] != UInt8(ascii: "="),
        bytes[index] != UInt8(ascii: ",")
      {
        index = bytes.index(after: index)
      }
      let name = String(Substring(bytes[nameStart..<index])).trimmingBlanks
      guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "="), !name.isEmpty else {
        throw PlaylistError(
          line: line, message: "\(tag) has a malformed attribute list: expected NAME=VALUE.")
      }
      index = bytes.index(after: index)
      skipBlanks()
      let valueStart = index
      if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
        index = bytes.index(after: index)
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") {
          index = bytes.index(after: index)
        }
        guard index < bytes.endIndex else {
          throw PlaylistError(
            line: line, message: "\(tag) attribute \(name) has an unterminated quoted string.")
        }
        index = bytes.index(after: index)
        let valueEnd = index
        skipBlanks()
        guard index == bytes.endIndex || bytes[index] == UInt8(ascii: ",") else {
          throw PlaylistError(
            line: line, message: "\(tag) attribute \(name) has text after its closing quote.")
        }
        entries.append(
          Entry(name: name, raw: Substring(bytes[valueStart..<valueEnd]), isQuoted: true))
      } else {
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: ",") {
          if bytes[index] == UInt8(ascii: "\"") {
            throw PlaylistError(
              line: line, message: "\(tag) attribute \(name) has a stray quote in its value.")
          }
          index = bytes.index(after: index)
        }
        let raw = Substring(bytes[valueStart..<index]).trimmingBlanks
        entries.append(Entry(name: name, raw: raw, isQuoted: false))
      }
      guard index < bytes.endIndex else { break }
      index = bytes.index(after: index)  // the comma
    }
  }

  /// Replaces the raw value of entry `index` (quotes included for a quoted string).
  mutating func replaceRaw(at index: Int, with raw: String) {
    entries[index].raw = Substring(raw)
  }

  /// The last entry named `name`, marking the name as known.
  private mutating func entry(_ name: String) -> Entry? {
    known.insert(name)
    return entries.last { $0.name == name }
  }

  private func error(_ name: String, _ problem: String) -> PlaylistError {
    PlaylistError(line: line, message: "\(tag) attribute \(name) \(problem).")
  }

  /// The value of a quoted-string attribute without its quotes (an unquoted value is taken
  /// as it is).
  mutating func string(_ name: String) -> String? {
    guard let entry = entry(name) else { return nil }
    // Drop the quotes as bytes: as Characters, a quote and a combining mark after it are one.
    return String(entry.isQuoted ? Substring(entry.raw.utf8.dropFirst().dropLast()) : entry.raw)
  }

  /// The value of an attribute that must be a quoted string, without its quotes.
  mutating func quotedString(_ name: String) throws(PlaylistError) -> String? {
    guard let entry = entry(name) else { return nil }
    guard entry.isQuoted else { throw error(name, "must be a quoted string") }
    return String(Substring(entry.raw.utf8.dropFirst().dropLast()))
  }

  /// The raw value (quotes kept) of an attribute.
  mutating func raw(_ name: String) -> String? {
    entry(name).map { String($0.raw) }
  }

  /// The value of an enumerated-string attribute; a quoted value is an error.
  mutating func enumerated(_ name: String) throws(PlaylistError) -> String? {
    guard let entry = entry(name) else { return nil }
    guard !entry.isQuoted else { throw error(name, "must not be quoted") }
    return String(entry.raw)
  }

  /// The value of a decimal-integer attribute.
  mutating func integer(_ name: String) throws(PlaylistError) -> Int? {
    guard let text = try enumerated(name) else { return nil }
    guard let value = DecimalParsing.integer(Substring(text)) else {
      throw error(name, "is not a whole number in range: \(text.truncatedForMessage)")
    }
    return value
  }

  /// The value of a decimal-floating-point attribute.
  mutating func decimal(_ name: String) throws(PlaylistError) -> Double? {
    guard let text = try enumerated(name) else { return nil }
    guard let value = DecimalParsing.decimal(Substring(text)) else {
      throw error(name, "is not a decimal number in range: \(text.truncatedForMessage)")
    }
    return value
  }

  /// The value of a `YES`/`NO` attribute; absent means `false`.
  mutating func flag(_ name: String) throws(PlaylistError) -> Bool {
    switch try enumerated(name) {
    case nil, "NO": return false
    case "YES": return true
    case let other?: throw error(name, "must be YES or NO, not \(other.truncatedForMessage)")
    }
  }

  /// The value of a decimal-resolution attribute (`1920x1080`).
  mutating func resolution(_ name: String) throws(PlaylistError) -> Resolution? {
    guard let text = try enumerated(name) else { return nil }
    let utf8 = Substring(text).utf8
    guard
      let cross = utf8.firstIndex(where: { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }),
      let width = DecimalParsing.integer(Substring(utf8[..<cross])),
      let height = DecimalParsing.integer(Substring(utf8[utf8.index(after: cross)...]))
    else { throw error(name, "is not a resolution like 1920x1080: \(text.truncatedForMessage)") }
    return Resolution(width: width, height: height)
  }

  /// The error for a required attribute that is absent.
  func missing(_ name: String) -> PlaylistError {
    PlaylistError(line: line, message: "\(tag) has no \(name) attribute.")
  }

  /// Every attribute no accessor has asked for, in the order written.
  var otherAttributes: [Attribute] {
    entries.filter { !known.contains($0.name) }.map {
      Attribute(name: $0.name, value: String($0.raw))
    }
  }
}
