/// A `SegmentURL` of a `SegmentList` (ISO/IEC 23009-1 §5.3.9.3.2).
public struct SegmentURL: Sendable, Equatable {
  /// `@media`, relative to the Representation's base URL; nil means the base URL itself.
  public var media: String?
  /// `@mediaRange`: the bytes of the resource that hold the segment.
  public var mediaRange: ByteRange?

  /// Creates a segment URL.
  public init(media: String? = nil, mediaRange: ByteRange? = nil) {
    self.media = media
    self.mediaRange = mediaRange
  }
}
