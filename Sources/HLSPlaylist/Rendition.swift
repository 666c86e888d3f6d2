/// An alternative rendition of a master playlist, an `EXT-X-MEDIA` tag (RFC 8216 §4.3.4.1):
/// an audio track, a subtitle track, closed captions or another video angle.
public struct Rendition: Sendable, Equatable {
  /// The kind of media, the `TYPE` attribute.
  public enum MediaType: String, Sendable {
    /// An audio track.
    case audio = "AUDIO"
    /// A video track, such as another camera angle.
    case video = "VIDEO"
    /// A WebVTT subtitle track.
    case subtitles = "SUBTITLES"
    /// Closed captions carried in the video stream.
    case closedCaptions = "CLOSED-CAPTIONS"
  }

  /// The kind of media, `TYPE`.
  public var type: MediaType
  /// The group the rendition belongs to, `GROUP-ID`.
  public var groupID: String
  /// A human-readable name, `NAME`.
  public var name: String
  /// The primary language (RFC 5646 tag), `LANGUAGE`.
  public var language: String?
  /// A language associated with the rendition, `ASSOC-LANGUAGE`.
  public var assocLanguage: String?
  /// Whether players choose it when the user has not, `DEFAULT=YES`.
  public var isDefault: Bool
  /// Whether players may choose it by themselves, `AUTOSELECT=YES`.
  public var autoselect: Bool
  /// Whether subtitles must be shown, `FORCED=YES`.
  public var forced: Bool
  /// The URI of the rendition's media playlist, as written; nil when it is in the variant.
  public var uri: String?
  /// The closed-caption channel, `INSTREAM-ID`, such as `CC1`.
  public var instreamID: String?
  /// Uniform type identifiers, `CHARACTERISTICS`.
  public var characteristics: String?
  /// The audio channel description, `CHANNELS`, such as `2` or `16/JOC`.
  public var channels: String?
  /// Attributes the parser does not model, written back unchanged.
  public var otherAttributes: [Attribute]

  /// Creates a rendition.
  public init(
    type: MediaType, groupID: String, name: String, language: String? = nil,
    assocLanguage: String? = nil, isDefault: Bool = false, autoselect: Bool = false,
    forced: Bool = false, uri: String? = nil, instreamID: String? = nil,
    characteristics: String? = nil, channels: String? = nil, otherAttributes: [Attribute] = []
  ) {
    self.type = type
    self.groupID = groupID
    self.name = name
    self.language = language
    self.assocLanguage = assocLanguage
    self.isDefault = isDefault
    self.autoselect = autoselect
    self.forced = forced
    self.uri = uri
    self.instreamID = instreamID
    self.characteristics = characteristics
    self.channels = channels
    self.otherAttributes = otherAttributes
  }
}
