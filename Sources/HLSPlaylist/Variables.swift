/// The variables a playlist has defined so far, and their substitution (RFC 8216bis §4.3).
///
/// A Variable Reference is `{$` followed by a Variable Name (`[A-Za-z0-9_-]+`, case-sensitive)
/// and `}`. Each one in a URI line, a quoted-string value or a hexadecimal-sequence value is
/// replaced by the value of a variable defined above it; one without a definition is an error,
/// as RFC 8216bis requires. Text that is not a reference (`{$}`, `{$a b}`) is left alone, and
/// substituted values are not searched again. A substitution that leaves a reference behind
/// (a value holding `{$b}`, or `{$` spliced with text after it) is an error too: a written
/// playlist, which holds resolved values, would read it as a reference.
struct Variables {
  /// The most bytes all substitutions of one playlist may insert, so a short playlist that
  /// references a long value many times cannot grow without bound.
  static let maximumSubstitutedBytes = 64 << 20

  /// Where `IMPORT` and `QUERYPARAM` take their values from.
  let context: PlaylistContext
  /// Whether the playlist is a multivariant one, where `IMPORT` is not allowed.
  let isMultivariant: Bool
  /// The values defined so far, by name.
  private(set) var values: [String: String] = [:]
  /// The line of each definition, for the error about a second one.
  private(set) var lines: [String: Int] = [:]
  private var substitutedBytes = 0

  init(context: PlaylistContext, isMultivariant: Bool) {
    self.context = context
    self.isMultivariant = isMultivariant
  }

  /// Records `value` for `name`, defined on `line`.
  ///
  /// - Throws: `PlaylistError` when `name` was defined before or the value cannot be carried
  ///   by playlist text (a quote or a line break).
  mutating func define(_ name: String, _ value: String, line: Int) throws(PlaylistError) {
    if let first = lines[name] {
      throw PlaylistError(
        line: line,
        message: "The variable \"\(name)\" is defined a second time (first on line \(first)); "
          + "a playlist may define a name only once.")
    }
    guard !value.utf8.contains(where: { $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
      throw PlaylistError(
        line: line,
        message: "EXT-X-DEFINE: the value of \"\(name)\" holds a quote or a line break, which "
          + "no quoted string can carry.")
    }
    values[name] = value
    lines[name] = line
  }

  /// `text` with every variable reference replaced, or nil when it holds none.
  ///
  /// - Throws: `PlaylistError` on `line` for a reference to a variable not defined above it,
  ///   a substitution that leaves a reference behind, or one past
  ///   `maximumSubstitutedBytes`. The message never holds a value.
  mutating func substitute(_ text: Substring, line: Int) throws(PlaylistError) -> String? {
    let bytes = text.utf8
    guard let first = Self.reference(in: bytes, from: bytes.startIndex) else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var copied = bytes.startIndex
    var next: (range: Range<Substring.UTF8View.Index>, name: Substring)? = first
    while let (range, name) = next {
      guard let value = values[String(name)] else {
        throw PlaylistError(
          line: line,
          message: "The variable \(String(name).truncatedForMessage) has no EXT-X-DEFINE above "
            + "this line.")
      }
      substitutedBytes += value.utf8.count
      guard substitutedBytes <= Self.maximumSubstitutedBytes else {
        throw PlaylistError(
          line: line,
          message: "Variable substitution would make the playlist larger than "
            + "\(Self.maximumSubstitutedBytes >> 20) MiB.")
      }
      result += bytes[copied..<range.lowerBound]
      result += value.utf8
      copied = range.upperBound
      next = Self.reference(in: bytes, from: copied)
    }
    result += bytes[copied...]
    let substituted = String(decoding: result, as: UTF8.self)
    let utf8 = Substring(substituted).utf8
    if let (_, name) = Self.reference(in: utf8, from: utf8.startIndex) {
      throw PlaylistError(
        line: line,
        message: "Substituting the variables of this line builds a new reference to "
          + "\(String(name).truncatedForMessage); a variable's value "
          + "must not make a reference, since written out it would read as one.")
    }
    return substituted
  }

  /// The first variable reference in `bytes` at or after `start`: its range (braces included)
  /// and its name.
  static func reference(in bytes: Substring.UTF8View, from start: Substring.UTF8View.Index)
    -> (range: Range<Substring.UTF8View.Index>, name: Substring)?
  {
    var index = start
    while index < bytes.endIndex {
      guard bytes[index] == UInt8(ascii: "{") else {
        index = bytes.index(after: index)
        continue
      }
      let dollar = bytes.index(after: index)
      guard dollar < bytes.endIndex, bytes[dollar] == UInt8(ascii: "$") else {
        index = dollar
        continue
      }
      let nameStart = bytes.index(after: dollar)
      var nameEnd = nameStart
      while nameEnd < bytes.endIndex, isNameByte(bytes[nameEnd]) {
        nameEnd = bytes.index(after: nameEnd)
      }
      if nameEnd > nameStart, nameEnd < bytes.endIndex, bytes[nameEnd] == UInt8(ascii: "}") {
        return (index..<bytes.index(after: nameEnd), Substring(bytes[nameStart..<nameEnd]))
      }
      index = nameStart
    }
    return nil
  }

  /// Whether `name` is a Variable Name: one or more of `[A-Za-z0-9_-]`.
  static func isName(_ name: String) -> Bool {
    !name.utf8.isEmpty && name.utf8.allSatisfy(isNameByte)
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}
