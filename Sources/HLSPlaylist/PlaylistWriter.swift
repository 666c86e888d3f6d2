/// Writes a `Playlist` as HLS text (RFC 8216), LF line endings, starting with `#EXTM3U`.
///
/// What the parser reads, the writer writes back: for every text `t` that parses,
/// `parse(write(parse(t))) == parse(t)`. Byte ranges always carry an explicit offset;
/// `EXT-X-KEY` and `EXT-X-MAP` appear only where they change; quoted-string attributes are
/// quoted and enumerated strings are not; an IV is `0x` and 32 uppercase hexadecimal digits;
/// durations have the fewest digits that read back to the same `Double`.
///
/// Variables: a parsed playlist holds the values its `EXT-X-DEFINE` variables resolved to,
/// and the writer writes those values and no `EXT-X-DEFINE`. What it writes therefore parses
/// on its own, with no `PlaylistContext` (an offline playlist names our own files, and a
/// token that `QUERYPARAM` took from a URL is not copied into a definition), and reads back
/// as the same playlist: for a text `t` parsed with context `c`,
/// `parse(write(parse(t, context: c).playlist)) == parse(t, context: c).playlist`.
///
/// ```swift
/// var media = try PlaylistParser.parse(text)  // .media(...)
/// let offline = PlaylistWriter.write(media)
/// ```
public enum PlaylistWriter {
  /// The text of `playlist`.
  public static func write(_ playlist: Playlist) -> String {
    switch playlist {
    case .master(let master): write(master)
    case .media(let media): write(media)
    }
  }

  /// The text of a master playlist: header, unknown tags, renditions, variants with their
  /// URI lines, I-frame variants.
  public static func write(_ master: MasterPlaylist) -> String {
    var lines = ["#EXTM3U"]
    if let version = master.version { lines.append("#EXT-X-VERSION:\(version)") }
    if master.independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
    for key in master.sessionKeys { lines.append("#EXT-X-SESSION-KEY:" + attributes(of: key)) }
    if let steering = master.contentSteering {
      var list = AttributeWriter()
      list.quoted("SERVER-URI", steering.serverURI)
      list.quoted("PATHWAY-ID", steering.pathwayID)
      list.others(steering.otherAttributes)
      lines.append("#EXT-X-CONTENT-STEERING:" + list.text)
    }
    lines += master.unknownTags
    for rendition in master.renditions {
      lines.append("#EXT-X-MEDIA:" + attributes(of: rendition))
    }
    for variant in master.variants {
      lines.append("#EXT-X-STREAM-INF:" + attributes(of: variant))
      lines.append(variant.uri)
    }
    for variant in master.iFrameVariants {
      lines.append("#EXT-X-I-FRAME-STREAM-INF:" + attributes(of: variant))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func attributes(of variant: Variant) -> String {
    var list = streamAttributes(
      bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth,
      codecs: variant.codecs, resolution: variant.resolution)
    list.plain("FRAME-RATE", variant.frameRate.map(DecimalParsing.format))
    list.quoted("AUDIO", variant.audioGroup)
    list.quoted("VIDEO", variant.videoGroup)
    list.quoted("SUBTITLES", variant.subtitlesGroup)
    list.plain("CLOSED-CAPTIONS", variant.closedCaptions)
    list.quoted("PATHWAY-ID", variant.pathwayID)
    list.others(variant.otherAttributes)
    return list.text
  }

  static func attributes(of variant: IFrameVariant) -> String {
    var list = streamAttributes(
      bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth,
      codecs: variant.codecs, resolution: variant.resolution)
    list.quoted("VIDEO", variant.videoGroup)
    list.quoted("URI", variant.uri)
    list.others(variant.otherAttributes)
    return list.text
  }

  /// The attributes that open both `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF`
  /// (RFC 8216 §4.3.4.3 gives the second the first's attributes, less a few), in the order
  /// written.
  private static func streamAttributes(
    bandwidth: Int, averageBandwidth: Int?, codecs: String?, resolution: Resolution?
  ) -> AttributeWriter {
    var list = AttributeWriter()
    list.plain("BANDWIDTH", bandwidth)
    list.plain("AVERAGE-BANDWIDTH", averageBandwidth)
    list.quoted("CODECS", codecs)
    list.plain("RESOLUTION", resolution.map { "\($0.width)x\($0.height)" })
    return list
  }

  static func attributes(of rendition: Rendition) -> String {
    var list = AttributeWriter()
    list.plain("TYPE", rendition.type.rawValue)
    list.quoted("GROUP-ID", rendition.groupID)
    list.quoted("NAME", rendition.name)
    list.quoted("LANGUAGE", rendition.language)
    list.quoted("ASSOC-LANGUAGE", rendition.assocLanguage)
    if rendition.isDefault { list.plain("DEFAULT", "YES") }
    if rendition.autoselect { list.plain("AUTOSELECT", "YES") }
    if rendition.forced { list.plain("FORCED", "YES") }
    list.quoted("INSTREAM-ID", rendition.instreamID)
    list.quoted("CHARACTERISTICS", rendition.characteristics)
    list.quoted("CHANNELS", rendition.channels)
    list.quoted("URI", rendition.uri)
    list.others(rendition.otherAttributes)
    return list.text
  }

  static func attributes(of key: Key) -> String {
    var list = AttributeWriter()
    list.plain("METHOD", key.method.rawValue)
    list.quoted("URI", key.uri)
    list.plain("IV", key.iv.map(DecimalParsing.hex))
    if !key.isIdentityFormat { list.quoted("KEYFORMAT", key.keyFormat) }
    list.quoted("KEYFORMATVERSIONS", key.keyFormatVersions)
    list.others(key.otherAttributes)
    return list.text
  }
}
