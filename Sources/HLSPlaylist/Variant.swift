/// One variant stream of a master playlist: an `EXT-X-STREAM-INF` tag and the URI line after
/// it (RFC 8216 §4.3.4.2).
public struct Variant: Sendable, Equatable {
  /// The URI of the variant's media playlist, as written (relative or absolute).
  public var uri: String
  /// The peak bit rate in bits per second, the required `BANDWIDTH` attribute.
  public var bandwidth: Int
  /// The average bit rate in bits per second, `AVERAGE-BANDWIDTH`.
  public var averageBandwidth: Int?
  /// The video resolution, `RESOLUTION`.
  public var resolution: Resolution?
  /// The comma-separated list of formats, `CODECS`, such as `avc1.640028,mp4a.40.2`.
  public var codecs: String?
  /// The maximum frame rate, `FRAME-RATE`.
  public var frameRate: Double?
  /// The `GROUP-ID` of the audio renditions to play with this variant, `AUDIO`.
  public var audioGroup: String?
  /// The `GROUP-ID` of the video renditions, `VIDEO`.
  public var videoGroup: String?
  /// The `GROUP-ID` of the subtitle renditions, `SUBTITLES`.
  public var subtitlesGroup: String?
  /// The raw `CLOSED-CAPTIONS` value: a quoted group ID (quotes included) or `NONE`.
  public var closedCaptions: String?
  /// The content steering pathway it belongs to, `PATHWAY-ID` (RFC 8216bis §4.4.6.2); nil
  /// when absent (the default pathway, `.`).
  public var pathwayID: String?
  /// Attributes the parser does not model (`HDCP-LEVEL`, `VIDEO-RANGE`, ...), written back.
  public var otherAttributes: [Attribute]

  /// Creates a variant.
  public init(
    uri: String, bandwidth: Int, averageBandwidth: Int? = nil, resolution: Resolution? = nil,
    codecs: String? = nil, frameRate: Double? = nil, audioGroup: String? = nil,
    videoGroup: String? = nil, subtitlesGroup: String? = nil, closedCaptions: String? = nil,
    pathwayID: String? = nil, otherAttributes: [Attribute] = []
  ) {
    self.uri = uri
    self.bandwidth = bandwidth
    self.averageBandwidth = averageBandwidth
    self.resolution = resolution
    self.codecs = codecs
    self.frameRate = frameRate
    self.audioGroup = audioGroup
    self.videoGroup = videoGroup
    self.subtitlesGroup = subtitlesGroup
    self.closedCaptions = closedCaptions
    self.pathwayID = pathwayID
    self.otherAttributes = otherAttributes
  }
}
