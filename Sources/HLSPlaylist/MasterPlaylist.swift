/// A master (multivariant) playlist (RFC 8216 §4.3.4): the variants of one presentation and
/// their alternative renditions.
///
/// ```swift
/// let best = master.variants.max { $0.bandwidth < $1.bandwidth }
/// let audio = master.renditions.filter { $0.type == .audio && $0.groupID == best?.audioGroup }
/// ```
public struct MasterPlaylist: Sendable, Equatable {
  /// The protocol version, `EXT-X-VERSION`.
  public var version: Int?
  /// Whether `EXT-X-INDEPENDENT-SEGMENTS` is present.
  public var independentSegments: Bool
  /// The variant streams, in playlist order.
  public var variants: [Variant]
  /// The I-frame variants, in playlist order.
  public var iFrameVariants: [IFrameVariant]
  /// The alternative renditions, in playlist order.
  public var renditions: [Rendition]
  /// The `EXT-X-SESSION-KEY` tags, in playlist order.
  public var sessionKeys: [Key]
  /// Tags the parser does not model (whole lines, verbatim), written back after the header.
  public var unknownTags: [String]
  /// `EXT-X-CONTENT-STEERING`, when present.
  public var contentSteering: ContentSteering?

  /// Creates a master playlist.
  public init(
    version: Int? = nil, independentSegments: Bool = false, variants: [Variant] = [],
    iFrameVariants: [IFrameVariant] = [], renditions: [Rendition] = [], sessionKeys: [Key] = [],
    unknownTags: [String] = []
  ) {
    self.version = version
    self.independentSegments = independentSegments
    self.variants = variants
    self.iFrameVariants = iFrameVariants
    self.renditions = renditions
    self.sessionKeys = sessionKeys
    self.unknownTags = unknownTags
  }
}
