extension PlaylistParser {
  /// What the media parser carries from line to line.
  private struct MediaState {
    var playlist = MediaPlaylist(targetDuration: 0)
    var hasTargetDuration = false
    var mediaSequenceLine = 1
    /// Whether a segment tag or a segment has been seen: unknown tags from then on belong to
    /// segments, not to the header.
    var inSegments = false
    var info: (line: Int, duration: Double, title: String?)?
    var range: (line: Int, length: Int64, offset: Int64?)?
    var discontinuity = false
    var programDateTime: String?
    var unknownTags: [String] = []
    var keys: [Key] = []
    var map: MapSection?
  }

  /// Parses the lines after `#EXTM3U` of a media playlist (RFC 8216 §4.3.3, §4.3.2).
  static func parseMedia(_ lines: ArraySlice<Line>, _ variables: inout Variables)
    throws(PlaylistError) -> MediaPlaylist
  {
    var state = MediaState()
    var single = SingleTags(SingleTags.media)
    for line in lines {
      switch line.kind {
      case .blank, .comment:
        continue
      case .uri:
        try appendSegment(uri: uri(line, &variables), line: line, to: &state)
      case .tag(let name, let value):
        try single.note(name, line: line.number)
        try apply(tag: name, value: value, line: line, to: &state, &variables)
      }
    }
    if let info = state.info {
      throw PlaylistError(line: info.line, message: "EXTINF must be followed by a URI line.")
    }
    guard state.hasTargetDuration else {
      throw PlaylistError(
        line: 1, message: "A media playlist must have an EXT-X-TARGETDURATION tag.")
    }
    var playlist = state.playlist
    if playlist.segments.isEmpty {
      playlist.unknownTags += state.unknownTags
    } else {
      playlist.trailingTags = state.unknownTags
    }
    for index in playlist.segments.indices {
      let (number, overflow) = playlist.mediaSequence.addingReportingOverflow(index)
      guard !overflow else {
        throw PlaylistError(
          line: state.mediaSequenceLine,
          message: "EXT-X-MEDIA-SEQUENCE is so large that segment numbers overflow.")
      }
      playlist.segments[index].mediaSequenceNumber = number
    }
    return playlist
  }

  private static func apply(
    tag name: Substring, value: Substring?, line: Line, to state: inout MediaState,
    _ variables: inout Variables
  ) throws(PlaylistError) {
    switch name {
    case "EXTM3U":
      return
    case "EXT-X-DEFINE":
      try variables.define(value, line: line.number)
    case "EXT-X-VERSION":
      state.playlist.version = try integerValue(line, name, value)
    case "EXT-X-TARGETDURATION":
      state.playlist.targetDuration = try integerValue(line, name, value)
      state.hasTargetDuration = true
    case "EXT-X-MEDIA-SEQUENCE":
      try requireNoSegmentYet(name, line, state)
      state.playlist.mediaSequence = try integerValue(line, name, value)
      state.mediaSequenceLine = line.number
    case "EXT-X-DISCONTINUITY-SEQUENCE":
      try requireNoSegmentYet(name, line, state)
      state.playlist.discontinuitySequence = try integerValue(line, name, value)
    case "EXT-X-PLAYLIST-TYPE":
      let text = value?.trimmingBlanks ?? ""
      guard let type = MediaPlaylist.PlaylistType(rawValue: String(text)) else {
        throw PlaylistError(
          line: line.number,
          message:
            "EXT-X-PLAYLIST-TYPE must be VOD or EVENT, not \(String(text).truncatedForMessage).")
      }
      state.playlist.playlistType = type
    case "EXT-X-ENDLIST":
      state.playlist.hasEndList = true
    case "EXT-X-INDEPENDENT-SEGMENTS":
      state.playlist.independentSegments = true
    case "EXT-X-I-FRAMES-ONLY":
      state.playlist.iFramesOnly = true
    case "EXTINF":
      state.inSegments = true
      state.info = try segmentInfo(line, value ?? "")
    case "EXT-X-BYTERANGE":
      state.inSegments = true
      let range = try byteRange(value ?? "", line: line.number, tag: "EXT-X-BYTERANGE")
      state.range = (line.number, range.length, range.offset)
    case "EXT-X-DISCONTINUITY":
      state.inSegments = true
      state.discontinuity = true
    case "EXT-X-PROGRAM-DATE-TIME":
      state.inSegments = true
      state.programDateTime = String(value ?? "")
    case "EXT-X-KEY":
      state.inSegments = true
      var list = try attributes(value, line, name, &variables)
      let key = try key(&list)
      state.keys = Key.applying([key], to: state.keys)
      guard state.keys.count <= Key.maximumFormatsInEffect else {
        throw PlaylistError(
          line: line.number,
          message: "More than \(Key.maximumFormatsInEffect) key formats are in effect at once.")
      }
    case "EXT-X-MAP":
      state.inSegments = true
      var list = try attributes(value, line, name, &variables)
      guard let uri = list.string("URI") else { throw list.missing("URI") }
      var range: ByteRange?
      if let text = list.string("BYTERANGE") {
        let parsed = try byteRange(Substring(text), line: line.number, tag: "EXT-X-MAP BYTERANGE")
        range = try resolved(length: parsed.length, offset: parsed.offset ?? 0, line: line.number)
      }
      // The keys read so far apply to the section too (RFC 8216 §4.3.2.4).
      state.map = MapSection(uri: uri, byteRange: range, keys: state.keys)
    default:
      let tag = try unknownTag(line, name, value, &variables)
      if state.inSegments {
        state.unknownTags.append(tag)
      } else {
        state.playlist.unknownTags.append(tag)
      }
    }
  }

  /// RFC 8216 §4.3.3.2 and §4.3.3.3: the sequence numbers come before the first segment (its
  /// `EXTINF`); one further down would renumber the segments above it, and with them the
  /// implicit AES-128 IVs.
  private static func requireNoSegmentYet(_ name: Substring, _ line: Line, _ state: MediaState)
    throws(PlaylistError)
  {
    guard state.playlist.segments.isEmpty, state.info == nil else {
      throw PlaylistError(
        line: line.number,
        message: "\(name) must come before the first segment, not after it: it would renumber "
          + "the segments above it.")
    }
  }

  private static func appendSegment(uri: String, line: Line, to state: inout MediaState)
    throws(PlaylistError)
  {
    guard let info = state.info else {
      throw PlaylistError(
        line: line.number, message: "A URI line in a media playlist must follow an EXTINF tag.")
    }
    var range: ByteRange?
    if let pending = state.range {
      var offset = pending.offset
      if offset == nil, let previous = state.playlist.segments.last, previous.uri == uri,
        let previousRange = previous.byteRange
      {
        offset = previousRange.end
      }
      guard let offset else {
        throw PlaylistError(
          line: pending.line,
          message: "EXT-X-BYTERANGE has no offset, but the previous segment is not a range "
            + "of the same URI.")
      }
      range = try resolved(length: pending.length, offset: offset, line: pending.line)
    }
    state.playlist.segments.append(
      Segment(
        uri: uri, duration: info.duration, title: info.title, byteRange: range,
        discontinuity: state.discontinuity, map: state.map,
        programDateTime: state.programDateTime, unknownTags: state.unknownTags))
    state.playlist.segments[state.playlist.segments.count - 1].keys = state.keys
    state.inSegments = true
    state.info = nil
    state.range = nil
    state.discontinuity = false
    state.programDateTime = nil
    state.unknownTags = []
  }

  /// The duration and title of `EXTINF:<duration>,[<title>]` (RFC 8216 §4.3.2.1).
  private static func segmentInfo(_ line: Line, _ value: Substring) throws(PlaylistError)
    -> (line: Int, duration: Double, title: String?)
  {
    let utf8 = value.utf8
    let comma = utf8.firstIndex(of: UInt8(ascii: ","))
    let durationText = Substring(utf8[..<(comma ?? utf8.endIndex)]).trimmingBlanks
    guard let duration = DecimalParsing.decimal(durationText) else {
      throw PlaylistError(
        line: line.number,
        message: "EXTINF duration must be a non-negative decimal number, "
          + "not \(String(durationText).truncatedForMessage).")
    }
    var title: String?
    if let comma {
      let text = Substring(utf8[utf8.index(after: comma)...])
      title = text.isEmpty ? nil : String(text)
    }
    return (line.number, duration, title)
  }

  /// Parses `<n>[@<o>]` (RFC 8216 §4.3.2.2).
  private static func byteRange(_ text: Substring, line: Int, tag: String) throws(PlaylistError)
    -> (length: Int64, offset: Int64?)
  {
    let utf8 = text.utf8
    let at = utf8.firstIndex(of: UInt8(ascii: "@"))
    let length = DecimalParsing.integer64(Substring(utf8[..<(at ?? utf8.endIndex)]).trimmingBlanks)
    var offset: Int64?
    var offsetIsValid = true
    if let at {
      offset = DecimalParsing.integer64(Substring(utf8[utf8.index(after: at)...]).trimmingBlanks)
      offsetIsValid = offset != nil
    }
    guard let length, offsetIsValid else {
      throw PlaylistError(
        line: line,
        message: "\(tag) must be <length>[@<offset>] with whole numbers in range, "
          + "not \(String(text).truncatedForMessage).")
    }
    return (length, offset)
  }

  /// A range whose end must fit in `Int64`.
  private static func resolved(length: Int64, offset: Int64, line: Int) throws(PlaylistError)
    -> ByteRange
  {
    guard !offset.addingReportingOverflow(length).overflow else {
      throw PlaylistError(line: line, message: "The byte range ends past the largest offset.")
    }
    return ByteRange(length: length, offset: offset)
  }
}
