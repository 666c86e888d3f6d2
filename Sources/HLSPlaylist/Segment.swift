/// One media segment of a media playlist: its `EXTINF` and the URI line after it, with the
/// tags that apply to it (RFC 8216 §4.3.2).
public struct Segment: Sendable, Equatable {
  /// The URI of the segment's resource, as written (relative or absolute).
  public var uri: String
  /// The duration in seconds, from `EXTINF`.
  public var duration: Double
  /// The title from `EXTINF`, or nil when there is none.
  public var title: String?
  /// The part of the resource that is this segment, `EXT-X-BYTERANGE`, with its offset
  /// resolved (an implicit offset starts right after the previous segment's range).
  public var byteRange: ByteRange?
  /// Whether `EXT-X-DISCONTINUITY` precedes the segment.
  public var discontinuity: Bool
  /// Every `EXT-X-KEY` in effect for the segment, one per `KEYFORMAT`, in the order they
  /// appeared; empty when the segment is not encrypted.
  public var keys: [Key]
  /// The Media Initialization Section in effect for the segment, `EXT-X-MAP`.
  public var map: MapSection?
  /// The raw `EXT-X-PROGRAM-DATE-TIME` value of this segment (ISO 8601), when given.
  public var programDateTime: String?
  /// The media sequence number: the playlist's `mediaSequence` plus the segment's index.
  public var mediaSequenceNumber: Int
  /// Tags the parser does not model that precede the segment's URI (whole lines, verbatim).
  /// Written back between the segment's `EXTINF` and its URI.
  public var unknownTags: [String]

  /// Creates a segment.
  public init(
    uri: String, duration: Double, title: String? = nil, byteRange: ByteRange? = nil,
    discontinuity: Bool = false, key: Key? = nil, map: MapSection? = nil,
    programDateTime: String? = nil, mediaSequenceNumber: Int = 0, unknownTags: [String] = []
  ) {
    self.uri = uri
    self.duration = duration
    self.title = title
    self.byteRange = byteRange
    self.discontinuity = discontinuity
    self.keys = key.map { [$0] } ?? []
    self.map = map
    self.programDateTime = programDateTime
    self.mediaSequenceNumber = mediaSequenceNumber
    self.unknownTags = unknownTags
  }

  /// The key in effect for the segment: the `identity` one when there are several key
  /// formats, else the first; nil when the segment is not encrypted.
  ///
  /// Setting it replaces all of `keys` with the new key (or none).
  public var key: Key? {
    get { keys.first(where: \.isIdentityFormat) ?? keys.first }
    set { keys = newValue.map { [$0] } ?? [] }
  }
}
