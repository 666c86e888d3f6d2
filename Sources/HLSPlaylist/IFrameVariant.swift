/// One I-frame variant of a master playlist, an `EXT-X-I-FRAME-STREAM-INF` tag
/// (RFC 8216 §4.3.4.3), used for trick play.
public struct IFrameVariant: Sendable, Equatable {
  /// The URI of the I-frame media playlist, as written (relative or absolute).
  public var uri: String
  /// The peak bit rate in bits per second, `BANDWIDTH`.
  public var bandwidth: Int
  /// The average bit rate in bits per second, `AVERAGE-BANDWIDTH`.
  public var averageBandwidth: Int?
  /// The video resolution, `RESOLUTION`.
  public var resolution: Resolution?
  /// The comma-separated list of formats, `CODECS`.
  public var codecs: String?
  /// The `GROUP-ID` of the video renditions, `VIDEO`.
  public var videoGroup: String?
  /// Attributes the parser does not model, written back unchanged.
  public var otherAttributes: [Attribute]

  /// Creates an I-frame variant.
  public init(
    uri: String, bandwidth: Int, averageBandwidth: Int? = nil, resolution: Resolution? = nil,
    codecs: String? = nil, videoGroup: String? = nil, otherAttributes: [Attribute] = []
  ) {
    self.uri = uri
    self.bandwidth = bandwidth
    self.averageBandwidth = averageBandwidth
    self.resolution = resolution
    self.codecs = codecs
    self.videoGroup = videoGroup
    self.otherAttributes = otherAttributes
  }
}
