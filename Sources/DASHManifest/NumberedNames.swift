/// Segment file names that count up by one from their first, such as `v/s00000.m4s`,
/// `v/s00001.m4s`: exactly the names a `SegmentTemplate` with `$Number%05d$` addresses
/// (ISO/IEC 23009-1 §5.3.9.4.4), so the offline manifest can describe them as one.
///
/// The number is the last run of digits before the extension of the last path component;
/// every name must be the first one with that number plus its position, written with the
/// first one's width (`%0Nd`, or `$Number$` when the width is 1).
struct NumberedNames: Equatable {
  /// The `@media` template: the names' common text with `$Number$` (or `$Number%0Nd$`) in
  /// place of the number.
  var media: String
  /// The first name's number, the template's `@startNumber`.
  var startNumber: UInt64

  /// The template of `names`, or nil when they are empty, do not count up by one in one
  /// place with one width, or hold a `$` (which a template would have to escape).
  init?(_ names: [String]) {
    guard let first = names.first, !names.contains(where: { $0.contains("$") }),
      let (prefix, digits, suffix) = Self.split(first), digits.count <= 18,
      let number = UInt64(digits)
    else { return nil }
    for (offset, name) in names.enumerated() {
      let text = Self.padded(number + UInt64(offset), width: digits.count)
      guard name.count == prefix.count + text.count + suffix.count,
        name.hasPrefix(prefix), name.hasSuffix(suffix),
        name.dropFirst(prefix.count).dropLast(suffix.count) == text
      else { return nil }
    }
    media = prefix + (digits.count == 1 ? "$Number$" : "$Number%0\(digits.count)d$") + suffix
    startNumber = number
  }

  /// `name` as the text before its number, the number's digits and the text after them.
  private static func split(_ name: String) -> (String, String, String)? {
    let characters = Array(name)
    let componentStart = (characters.lastIndex(of: "/") ?? -1) + 1
    let stemEnd =
      characters[componentStart...].lastIndex(of: ".").flatMap {
        $0 > componentStart ? $0 : nil
      } ?? characters.count
    guard
      let last = characters[componentStart..<stemEnd].lastIndex(where: { $0.isASCII && $0.isNumber }
      )
    else { return nil }
    var start = last
    while start > componentStart, characters[start - 1].isASCII, characters[start - 1].isNumber {
      start -= 1
    }
    return (
      String(characters[..<start]), String(characters[start...last]),
      String(characters[(last + 1)...])
    )
  }

  /// `number` in decimal, with leading zeros up to `width` digits.
  private static func padded(_ number: UInt64, width: Int) -> String {
    let text = String(number)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}
