extension PlaylistParser {
  /// Parses the lines after `#EXTM3U` of a master playlist (RFC 8216 §4.3.4).
  static func parseMaster(_ lines: ArraySlice<Line>, _ variables: inout Variables)
    throws(PlaylistError) -> MasterPlaylist
  {
    var master = MasterPlaylist()
    var pending: (line: Int, variant: Variant)?
    var single = SingleTags(SingleTags.master)
    var groups = RenditionGroups()
    for line in lines {
      switch line.kind {
      case .blank, .comment:
        continue
      case .uri:
        guard var variant = pending?.variant else {
          throw PlaylistError(
            line: line.number,
            message: "A URI line in a master playlist must follow an EXT-X-STREAM-INF tag.")
        }
        variant.uri = try uri(line, &variables)
        master.variants.append(variant)
        pending = nil
      case .tag(let name, let value):
        if let pending { throw streamInfWithoutURI(pending.line) }
        try single.note(name, line: line.number)
        switch name {
        case "EXTM3U":
          continue
        case "EXT-X-DEFINE":
          try variables.define(value, line: line.number)
        case "EXT-X-VERSION":
          master.version = try integerValue(line, name, value)
        case "EXT-X-INDEPENDENT-SEGMENTS":
          master.independentSegments = true
        case "EXT-X-STREAM-INF":
          var list = try attributes(value, line, name, &variables)
          pending = (line.number, try variant(&list))
        case "EXT-X-I-FRAME-STREAM-INF":
          var list = try attributes(value, line, name, &variables)
          master.iFrameVariants.append(try iFrameVariant(&list))
        case "EXT-X-MEDIA":
          var list = try attributes(value, line, name, &variables)
          let rendition = try rendition(&list)
          try groups.add(rendition, line: line.number)
          master.renditions.append(rendition)
        case "EXT-X-CONTENT-STEERING":
          var list = try attributes(value, line, name, &variables)
          guard let server = list.string("SERVER-URI") else { throw list.missing("SERVER-URI") }
          master.contentSteering = ContentSteering(
            serverURI: server, pathwayID: list.string("PATHWAY-ID"),
            otherAttributes: list.otherAttributes)
        case "EXT-X-SESSION-KEY":
          var list = try attributes(value, line, name, &variables)
          master.sessionKeys.append(try key(&list))
        case "EXTINF", "EXT-X-TARGETDURATION":
          throw PlaylistError(
            line: line.number,
            message: "\(name) belongs in a media playlist, but this playlist has master tags.")
        default:
          master.unknownTags.append(try unknownTag(line, name, value, &variables))
        }
      }
    }
    if let pending { throw streamInfWithoutURI(pending.line) }
    return master
  }

  private static func streamInfWithoutURI(_ line: Int) -> PlaylistError {
    PlaylistError(line: line, message: "EXT-X-STREAM-INF must be followed by a URI line.")
  }

  /// The attributes of `EXT-X-STREAM-INF` (RFC 8216 §4.3.4.2); the URI comes later.
  private static func variant(_ attributes: inout AttributeList) throws(PlaylistError) -> Variant {
    guard let bandwidth = try attributes.integer("BANDWIDTH") else {
      throw attributes.missing("BANDWIDTH")
    }
    return Variant(
      uri: "", bandwidth: bandwidth,
      averageBandwidth: try attributes.integer("AVERAGE-BANDWIDTH"),
      resolution: try attributes.resolution("RESOLUTION"),
      codecs: attributes.string("CODECS"),
      frameRate: try attributes.decimal("FRAME-RATE"),
      audioGroup: attributes.string("AUDIO"),
      videoGroup: attributes.string("VIDEO"),
      subtitlesGroup: attributes.string("SUBTITLES"),
      closedCaptions: attributes.raw("CLOSED-CAPTIONS"),
      pathwayID: attributes.string("PATHWAY-ID"),
      otherAttributes: attributes.otherAttributes)
  }

  /// The attributes of `EXT-X-I-FRAME-STREAM-INF` (RFC 8216 §4.3.4.3).
  private static func iFrameVariant(_ attributes: inout AttributeList) throws(PlaylistError)
    -> IFrameVariant
  {
    guard let bandwidth = try attributes.integer("BANDWIDTH") else {
      throw attributes.missing("BANDWIDTH")
    }
    guard let uri = attributes.string("URI") else { throw attributes.missing("URI") }
    return IFrameVariant(
      uri: uri, bandwidth: bandwidth,
      averageBandwidth: try attributes.integer("AVERAGE-BANDWIDTH"),
      resolution: try attributes.resolution("RESOLUTION"),
      codecs: attributes.string("CODECS"),
      videoGroup: attributes.string("VIDEO"),
      otherAttributes: attributes.otherAttributes)
  }

  /// The attributes of `EXT-X-MEDIA` (RFC 8216 §4.3.4.1).
  private static func rendition(_ attributes: inout AttributeList) throws(PlaylistError)
    -> Rendition
  {
    guard let typeText = try attributes.enumerated("TYPE") else {
      throw attributes.missing("TYPE")
    }
    guard let type = Rendition.MediaType(rawValue: typeText) else {
      throw PlaylistError(
        line: attributes.line,
        message: "EXT-X-MEDIA TYPE must be AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS, "
          + "not \(typeText.truncatedForMessage).")
    }
    guard let groupID = attributes.string("GROUP-ID") else {
      throw attributes.missing("GROUP-ID")
    }
    guard let name = attributes.string("NAME") else { throw attributes.missing("NAME") }
    return Rendition(
      type: type, groupID: groupID, name: name,
      language: attributes.string("LANGUAGE"),
      assocLanguage: attributes.string("ASSOC-LANGUAGE"),
      isDefault: try attributes.flag("DEFAULT"),
      autoselect: try attributes.flag("AUTOSELECT"),
      forced: try attributes.flag("FORCED"),
      uri: attributes.string("URI"),
      instreamID: attributes.string("INSTREAM-ID"),
      characteristics: attributes.string("CHARACTERISTICS"),
      channels: attributes.string("CHANNELS"),
      otherAttributes: attributes.otherAttributes)
  }
}
