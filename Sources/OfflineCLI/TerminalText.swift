import Foundation
import OfflineHTTP

/// Text a server supplied (CODECS, NAME, LANGUAGE, URIs, titles, error messages), made safe
/// and readable to print on a terminal.
///
/// Control characters are shown as Swift-style escapes, `\u{1B}` for ESC, so a hostile
/// playlist cannot move the cursor, retitle the window or hide text: every C0 character
/// (ESC, CR, LF, TAB, NUL, …), DEL, every C1 character (U+0080 to U+009F) and the Unicode
/// bidirectional overrides and isolates (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069)
/// that can make text read backwards. Everything else, accents and other scripts included,
/// is left as it is.
///
/// ```swift
/// console.out(TerminalText.escaped(rendition.name))
/// console.err("Error: " + TerminalText.message(error.description))
/// ```
enum TerminalText {
  /// URLs longer than this many characters are cut by ``shortened(url:)``.
  static let maximumURLLength = 160
  /// Words (runs without spaces) longer than this are cut by ``message(_:)``.
  static let maximumWordLength = 200

  /// `text` with every control character shown as `\u{XX}`.
  static func escaped(_ text: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        result += "\\u{" + String(format: "%02X", scalar.value) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The URL for a message: credentials and query values redacted as everywhere else,
  /// escaped, and when longer than ``maximumURLLength`` its start and end around `…`, with
  /// its full length, e.g. `http://host/very…/end.ts (5029 characters)`.
  static func shortened(url: URL) -> String {
    shortened(word: url.redactedForDisplay, limit: maximumURLLength)
  }

  /// A message for the terminal: every word longer than ``maximumWordLength`` (such as a
  /// 15 MB URL) cut like ``shortened(url:)``, and the whole escaped.
  static func message(_ text: String) -> String {
    guard text.count > maximumWordLength else { return escaped(text) }
    let words = text.split(separator: " ", omittingEmptySubsequences: false)
    return words.map { shortened(word: String($0), limit: maximumWordLength) }.joined(
      separator: " ")
  }

  private static func shortened(word: String, limit: Int) -> String {
    guard word.count > limit else { return escaped(word) }
    let tail = 24
    return escaped(String(word.prefix(limit - tail))) + "…" + escaped(String(word.suffix(tail)))
      + " (\(word.count) characters)"
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
