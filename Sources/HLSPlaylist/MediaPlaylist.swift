/// A media playlist (RFC 8216 §4.3.3): the segments of one rendition or variant.
///
/// ```swift
/// for segment in media.segments {
///   print(segment.mediaSequenceNumber, segment.uri, segment.byteRange?.offset ?? 0)
/// }
/// ```
public struct MediaPlaylist: Sendable, Equatable {
  /// The kind of playlist, `EXT-X-PLAYLIST-TYPE`.
  public enum PlaylistType: String, Sendable {
    /// Video on demand: the playlist never changes.
    case vod = "VOD"
    /// An event: segments are only ever added at the end.
    case event = "EVENT"
  }

  /// The protocol version, `EXT-X-VERSION`.
  public var version: Int?
  /// The upper bound of segment durations in seconds, `EXT-X-TARGETDURATION` (required).
  public var targetDuration: Int
  /// The media sequence number of the first segment, `EXT-X-MEDIA-SEQUENCE` (default 0).
  public var mediaSequence: Int
  /// The discontinuity sequence number of the first segment, `EXT-X-DISCONTINUITY-SEQUENCE`.
  public var discontinuitySequence: Int
  /// The kind of playlist, when given.
  public var playlistType: PlaylistType?
  /// Whether `EXT-X-ENDLIST` is present: no segment will be added.
  public var hasEndList: Bool
  /// Whether `EXT-X-INDEPENDENT-SEGMENTS` is present.
  public var independentSegments: Bool
  /// Whether `EXT-X-I-FRAMES-ONLY` is present: each segment is one I-frame.
  public var iFramesOnly: Bool
  /// The segments, in playlist order.
  public var segments: [Segment]
  /// Header-level tags the parser does not model: those before the first segment's tags
  /// (whole lines, verbatim). Written back after the known header tags.
  public var unknownTags: [String]
  /// Tags the parser does not model that follow the last segment's URI (whole lines,
  /// verbatim). Written back after the last segment.
  public var trailingTags: [String]

  /// Creates a media playlist.
  public init(
    version: Int? = nil, targetDuration: Int, mediaSequence: Int = 0,
    discontinuitySequence: Int = 0, playlistType: PlaylistType? = nil, hasEndList: Bool = false,
    independentSegments: Bool = false, iFramesOnly: Bool = false, segments: [Segment] = [],
    unknownTags: [String] = [], trailingTags: [String] = []
  ) {
    self.version = version
    self.targetDuration = targetDuration
    self.mediaSequence = mediaSequence
    self.discontinuitySequence = discontinuitySequence
    self.playlistType = playlistType
    self.hasEndList = hasEndList
    self.independentSegments = independentSegments
    self.iFramesOnly = iFramesOnly
    self.segments = segments
    self.unknownTags = unknownTags
    self.trailingTags = trailingTags
  }

  /// The sum of the segment durations, in seconds.
  public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }
}
