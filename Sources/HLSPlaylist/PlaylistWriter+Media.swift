extension PlaylistWriter {
  /// The text of a media playlist: header, unknown header tags, segments (each with the
  /// tags that change before it), trailing tags and `EXT-X-ENDLIST`.
  ///
  /// A new `EXT-X-MAP` comes after the `EXT-X-KEY` lines of its own ``MapSection/keys`` and
  /// before those of its segment, so a section in the clear stays in the clear.
  ///
  /// HLS has no way to say "no map from here on": a segment whose `map` is nil after one
  /// that had a map is written without a new `EXT-X-MAP`, so it reads back with the old one.
  public static func write(_ media: MediaPlaylist) -> String {
    var lines = ["#EXTM3U"]
    if let version = media.version { lines.append("#EXT-X-VERSION:\(version)") }
    lines.append("#EXT-X-TARGETDURATION:\(media.targetDuration)")
    if media.mediaSequence != 0 { lines.append("#EXT-X-MEDIA-SEQUENCE:\(media.mediaSequence)") }
    if media.discontinuitySequence != 0 {
      lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(media.discontinuitySequence)")
    }
    if let type = media.playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(type.rawValue)") }
    if media.iFramesOnly { lines.append("#EXT-X-I-FRAMES-ONLY") }
    if media.independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
    lines += media.unknownTags
    var keys: [Key] = []
    var map: MapSection?
    for segment in media.segments {
      if segment.discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
      if let segmentMap = segment.map, segmentMap != map {
        // The section is read with the keys in effect where it stands: its own, which may
        // be none while its segments' are some (a clear `init.mp4`, encrypted segments).
        writeKeys(segmentMap.keys, after: &keys, into: &lines)
        var list = AttributeWriter()
        list.quoted("URI", segmentMap.uri)
        list.quoted("BYTERANGE", segmentMap.byteRange.map { "\($0.length)@\($0.offset)" })
        lines.append("#EXT-X-MAP:" + list.text)
        map = segmentMap
      }
      writeKeys(segment.keys, after: &keys, into: &lines)
      if let date = segment.programDateTime { lines.append("#EXT-X-PROGRAM-DATE-TIME:" + date) }
      lines.append(
        "#EXTINF:" + DecimalParsing.format(segment.duration) + "," + (segment.title ?? ""))
      if let range = segment.byteRange {
        lines.append("#EXT-X-BYTERANGE:\(range.length)@\(range.offset)")
      }
      lines += segment.unknownTags
      lines.append(segment.uri)
    }
    lines += media.trailingTags
    if media.hasEndList { lines.append("#EXT-X-ENDLIST") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes the `EXT-X-KEY` lines that turn the keys in effect, `current`, into `keys`, and
  /// updates `current` to what a parser will then hold.
  ///
  /// Only keys that changed are written, unless that would leave a key of another
  /// `KEYFORMAT` in effect or change their order; then `METHOD=NONE` clears them first.
  private static func writeKeys(
    _ keys: [Key], after current: inout [Key], into lines: inout [String]
  ) {
    // Keep `keys` itself when it has no NONE, so that segments sharing one array compare
    // by identity.
    let wanted = keys.contains { $0.method == .none } ? keys.filter { $0.method != .none } : keys
    guard wanted != current else { return }
    let changed = wanted.filter { !current.contains($0) }
    if Key.applying(changed, to: current) == wanted {
      for key in changed { lines.append("#EXT-X-KEY:" + attributes(of: key)) }
      current = wanted
    } else {
      lines.append("#EXT-X-KEY:METHOD=NONE")
      for key in wanted { lines.append("#EXT-X-KEY:" + attributes(of: key)) }
      current = Key.applying(wanted, to: [])
    }
  }
}
