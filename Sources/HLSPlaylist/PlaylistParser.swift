/// Parses the text of an HLS playlist (RFC 8216) into a `Playlist`.
///
/// The parser is pure (no I/O), linear in the size of the text, and never traps: every
/// problem becomes a `PlaylistError` naming the 1-based line. Lines may end in LF or CRLF;
/// a leading UTF-8 byte order mark is skipped; blank lines and comments (`#` not followed by
/// `EXT`) are ignored; tags it does not model are kept verbatim.
///
/// ```swift
/// let playlist = try PlaylistParser.parse(text)
/// let again = try PlaylistParser.parse(PlaylistWriter.write(playlist))  // == playlist
/// ```
public enum PlaylistParser {
  /// Parses `text`, which must start with `#EXTM3U`, into a master or media playlist.
  ///
  /// - Throws: `PlaylistError` for the first line that breaks a rule the parser checks.
  public static func parse(_ text: String) throws(PlaylistError) -> Playlist {
    let lines = Line.split(text)
    guard let first = lines.first, first.text.utf8.starts(with: "#EXTM3U".utf8) else {
      throw PlaylistError(line: 1, message: "A playlist must start with #EXTM3U.")
    }
    let body = lines.dropFirst()
    let isMaster = body.contains { line in
      guard case .tag(let name, _) = line.kind else { return false }
      return masterTags.contains(name)
    }
    return isMaster ? .master(try parseMaster(body)) : .media(try parseMedia(body))
  }

  /// Tags that only a master playlist carries (RFC 8216 §4.3.4).
  static let masterTags: Set<Substring> = [
    "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-MEDIA", "EXT-X-SESSION-KEY",
    "EXT-X-SESSION-DATA",
  ]

  /// Parses the value of a tag whose value is one decimal-integer.
  static func integerValue(_ line: Line, _ name: Substring, _ value: Substring?)
    throws(PlaylistError) -> Int
  {
    guard let text = value?.trimmingBlanks, let number = DecimalParsing.integer(text) else {
      throw PlaylistError(
        line: line.number,
        message:
          "\(name) must be a whole number in range, not \(String(value ?? "").truncatedForMessage)."
      )
    }
    return number
  }

  /// Parses the attributes of an `EXT-X-KEY` or `EXT-X-SESSION-KEY` tag (RFC 8216 §4.3.2.4).
  static func key(_ attributes: inout AttributeList) throws(PlaylistError) -> Key {
    guard let method = try attributes.enumerated("METHOD") else {
      throw attributes.missing("METHOD")
    }
    var iv: [UInt8]?
    if let text = try attributes.enumerated("IV") {
      guard let bytes = DecimalParsing.initializationVector(Substring(text)) else {
        throw PlaylistError(
          line: attributes.line,
          message: "\(attributes.tag) IV must be 0x followed by 32 hexadecimal digits, "
            + "not \(text.truncatedForMessage).")
      }
      iv = bytes
    }
    return Key(
      method: Key.Method(rawValue: method), uri: attributes.string("URI"), iv: iv,
      keyFormat: attributes.string("KEYFORMAT") ?? Key.identityFormat,
      keyFormatVersions: attributes.string("KEYFORMATVERSIONS"),
      otherAttributes: attributes.otherAttributes)
  }
}

/// One line of a playlist, trimmed of surrounding blanks, with its 1-based number.
struct Line {
  /// What a line is, by its first characters.
  enum Kind {
    case blank
    case comment
    /// `#EXT...`: the name without `#`, and the text after the first colon when present.
    case tag(name: Substring, value: Substring?)
    case uri
  }

  var number: Int
  var text: Substring
  var kind: Kind

  /// Splits `text` at LF (a CR before it is dropped with the other trailing blanks),
  /// skipping a leading UTF-8 byte order mark.
  static func split(_ text: String) -> [Line] {
    var utf8 = Substring(text).utf8
    if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8 = utf8.dropFirst(3) }
    var lines: [Line] = []
    var number = 0
    for raw in utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
      number += 1
      lines.append(Line(number: number, text: Substring(raw).trimmingBlanks))
    }
    return lines
  }

  init(number: Int, text: Substring) {
    self.number = number
    self.text = text
    let utf8 = text.utf8
    if utf8.isEmpty {
      kind = .blank
    } else if utf8.starts(with: "#EXT".utf8) {
      let afterHash = utf8.dropFirst()
      if let colon = afterHash.firstIndex(of: UInt8(ascii: ":")) {
        kind = .tag(
          name: Substring(afterHash[..<colon]),
          value: Substring(afterHash[afterHash.index(after: colon)...]))
      } else {
        kind = .tag(name: Substring(afterHash), value: nil)
      }
    } else if utf8.first == UInt8(ascii: "#") {
      kind = .comment
    } else {
      kind = .uri
    }
  }
}
