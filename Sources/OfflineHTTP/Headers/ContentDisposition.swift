import Foundation
import HexDigits

/// A parsed `Content-Disposition` header (RFC 6266), reduced to what a downloader may want
/// to show: the disposition type and the file name the server suggests.
///
/// The file name is returned **as the server sent it**, decoded but not sanitised: it may
/// hold `../`, `/`, control characters or an absolute path. It is a suggestion for display
/// only. OfflineKit never takes a local name from it (local names come from the URL and go
/// through its own rules); a caller that wants to use it as a path must make it safe first.
///
/// ```swift
/// let disposition = ContentDisposition("attachment; filename*=UTF-8''na%C3%AFve.txt")
/// disposition?.fileName  // "naïve.txt"
/// ```
public struct ContentDisposition: Sendable, Equatable {
  /// The disposition type, lowercased: `attachment`, `inline` or an extension type.
  public var type: String
  /// The suggested name, unsanitised: `filename*` (RFC 8187 extended value, UTF-8 or
  /// ISO-8859-1) when present and decodable, else `filename`; nil when neither is there.
  public var fileName: String?

  /// Parses a header value; nil when it does not start with a disposition type token.
  ///
  /// Parameters that are malformed are skipped rather than failing the whole header, as
  /// RFC 6266 section 4.3 suggests; the first occurrence of each parameter wins.
  public init?(_ value: String) {
    var scanner = Scanner(Substring(value))
    guard let type = scanner.token(), !type.isEmpty else { return nil }
    self.type = type.lowercased()
    var plain: String?
    var extended: String?
    while scanner.skip(";") {
      guard let name = scanner.token()?.lowercased(), scanner.skip("=") else {
        scanner.skipParameter()
        continue
      }
      let raw: String?
      if scanner.peek == UInt8(ascii: "\"") {
        raw = scanner.quotedString()
      } else {
        raw = scanner.token()
      }
      guard let raw else {
        scanner.skipParameter()
        continue
      }
      if name == "filename", plain == nil {
        plain = raw
      } else if name == "filename*", extended == nil {
        extended = Self.decodeExtendedValue(raw)
      }
    }
    self.fileName = extended ?? plain
  }

  /// Decodes an RFC 8187 `ext-value`: `charset'language'pct-encoded`; nil when malformed or
  /// in a charset other than UTF-8 and ISO-8859-1.
  static func decodeExtendedValue(_ value: String) -> String? {
    let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var bytes: [UInt8] = []
    var utf8 = parts[2].utf8[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%") {
        guard let high = utf8.popFirst().flatMap(ASCIIHex.value(ofDigit:)),
          let low = utf8.popFirst().flatMap(ASCIIHex.value(ofDigit:))
        else { return nil }
        bytes.append(high << 4 | low)
      } else {
        bytes.append(byte)
      }
    }
    switch parts[0].lowercased() {
    case "utf-8":
      return String(validating: bytes, as: UTF8.self)
    case "iso-8859-1":
      return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    default:
      return nil
    }
  }

  /// Reads tokens and quoted strings (RFC 9110, section 5.6) from a header value.
  private struct Scanner {
    var rest: Substring.UTF8View.SubSequence

    init(_ text: Substring) { rest = text.utf8[...] }

    var peek: UInt8? {
      rest.first
    }

    mutating func skipSpaces() {
      while let byte = rest.first, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
        rest = rest.dropFirst()
      }
    }

    /// Consumes `character` (after optional spaces); false when something else is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      skipSpaces()
      guard rest.first == UInt8(ascii: character) else { return false }
      rest = rest.dropFirst()
      skipSpaces()
      return true
    }

    /// A run of token characters (anything visible but separators); nil when empty.
    mutating func token() -> String? {
      skipSpaces()
      let separators = Array("()<>@,;:\\\"/[]?={} \t".utf8)
      let end =
        rest.firstIndex { $0 <= 32 || $0 >= 127 || separators.contains($0) } ?? rest.endIndex
      guard end != rest.startIndex else { return nil }
      let token = String(decoding: rest[..<end], as: UTF8.self)
      rest = rest[end...]
      return token
    }

    /// A quoted string with its backslash escapes removed; nil when unterminated.
    mutating func quotedString() -> String? {
      guard rest.first == UInt8(ascii: "\"") else { return nil }
      var bytes: [UInt8] = []
      var index = rest.index(after: rest.startIndex)
      while index != rest.endIndex {
        let byte = rest[index]
        if byte == UInt8(ascii: "\"") {
          rest = rest[rest.index(after: index)...]
          return String(decoding: bytes, as: UTF8.self)
        }
        if byte == UInt8(ascii: "\\") {
          index = rest.index(after: index)
          guard index != rest.endIndex else { break }
        }
        bytes.append(rest[index])
        index = rest.index(after: index)
      }
      rest = rest[rest.endIndex...]
      return nil
    }

    /// Skips to the next `;` outside a quoted string, or the end.
    mutating func skipParameter() {
      var quoted = false
      while let byte = rest.first {
        if byte == UInt8(ascii: "\"") { quoted.toggle() }
        if byte == UInt8(ascii: "\\"), quoted {
          rest = rest.dropFirst()
        } else if byte == UInt8(ascii: ";"), !quoted {
          return
        }
        rest = rest.dropFirst()
      }
    }
  }
}
