/// The `EXT-X-CONTENT-STEERING` tag of a multivariant playlist (RFC 8216bis §4.4.6.6): where
/// a client asks which pathway (CDN) to use, and the pathway to use before it has asked.
/// Variants name their pathway with `PATHWAY-ID` (``Variant/pathwayID``).
public struct ContentSteering: Sendable, Equatable {
  /// `SERVER-URI`: the steering manifest's URI (or a `data:` URI), as written.
  public var serverURI: String
  /// `PATHWAY-ID`: the pathway to use first; nil when absent (the client chooses).
  public var pathwayID: String?
  /// Attributes the parser does not model, written back.
  public var otherAttributes: [Attribute]

  /// Creates the tag's value.
  public init(serverURI: String, pathwayID: String? = nil, otherAttributes: [Attribute] = []) {
    self.serverURI = serverURI
    self.pathwayID = pathwayID
    self.otherAttributes = otherAttributes
  }

  /// The pathway of a variant without `PATHWAY-ID` (RFC 8216bis §4.4.6.2).
  public static let defaultPathwayID = "."
}
