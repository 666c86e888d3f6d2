/// Parses the text of an HLS playlist (RFC 8216) into a `Playlist`.
///
/// The parser is pure (no I/O), linear in the size of the text, and never traps: every
/// problem becomes a `PlaylistError` naming the 1-based line. Lines may end in LF or CRLF;
/// a leading UTF-8 byte order mark is skipped; blank lines and comments (`#` not followed by
/// `EXT`) are ignored; tags it does not model are kept verbatim.
///
/// Variables (`EXT-X-DEFINE`, RFC 8216bis §4.3 and §4.4.2.3) are substituted while parsing,
/// in URI lines, quoted-string values and hexadecimal-sequence values, so the playlist it
/// returns holds resolved values and no `EXT-X-DEFINE`; a reference without a definition above
/// it is an error. `IMPORT` and `QUERYPARAM` need to know where the playlist came from: pass
/// a `PlaylistContext` to `parse(_:context:)`.
///
/// ```swift
/// let playlist = try PlaylistParser.parse(text)
/// let again = try PlaylistParser.parse(PlaylistWriter.write(playlist))  // == playlist
/// ```
public enum PlaylistParser {
  /// Parses `text`, which must start with `#EXTM3U`, into a master or media playlist read on
  /// its own: `NAME`/`VALUE` variables are substituted, and an `IMPORT` or `QUERYPARAM`
  /// definition fails (use `parse(_:context:)` for those).
  ///
  /// - Throws: `PlaylistError` for the first line that breaks a rule the parser checks.
  public static func parse(_ text: String) throws(PlaylistError) -> Playlist {
    try parse(text, context: PlaylistContext()).playlist
  }

  /// Parses `text`, which must start with `#EXTM3U`, fetched as described by `context`: its
  /// URI for `QUERYPARAM`, and for a media playlist the variables of the multivariant playlist
  /// that led to it for `IMPORT`.
  ///
  /// - Returns: The playlist with every variable substituted, and the variables it defined
  ///   (to pass on from a multivariant playlist to its media playlists).
  /// - Throws: `PlaylistError` for the first line that breaks a rule the parser checks.
  public static func parse(_ text: String, context: PlaylistContext) throws(PlaylistError)
    -> ParsedPlaylist
  {
    let lines = Line.split(text)
    guard let first = lines.first, first.text.utf8.starts(with: "#EXTM3U".utf8) else {
      throw PlaylistError(line: 1, message: "A playlist must start with #EXTM3U.")
    }
    let body = lines.dropFirst()
    let isMaster = body.contains { line in
      guard case .tag(let name, _) = line.kind else { return false }
      return masterTags.contains(name)
    }
    var variables = Variables(context: context, isMultivariant: isMaster)
    let playlist: Playlist =
      isMaster
      ? .master(try parseMaster(body, &variables)) : .media(try parseMedia(body, &variables))
    return ParsedPlaylist(playlist: playlist, variables: variables.values)
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
          message: "\(attributes.tag) IV must be 0x and the hexadecimal digits of a 128-bit "
            + "number (at most 32 after leading zeros), not \(text.truncatedForMessage).")
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
