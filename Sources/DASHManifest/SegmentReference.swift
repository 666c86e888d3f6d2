import Foundation

/// One resource to fetch: a media segment, an initialization section or an index, as an
/// absolute URL and an optional byte range of it.
public struct SegmentReference: Sendable, Equatable {
  /// The absolute URL.
  public var url: URL
  /// The bytes of the resource to fetch; nil for all of it.
  public var byteRange: ByteRange?
  /// The segment's number (`$Number$`), for template and list segments.
  public var number: UInt64?
  /// The segment's start in timescale units, when known.
  public var time: UInt64?
  /// The segment's duration in timescale units, when known.
  public var duration: UInt64?

  /// Creates a reference.
  public init(
    url: URL, byteRange: ByteRange? = nil, number: UInt64? = nil, time: UInt64? = nil,
    duration: UInt64? = nil
  ) {
    self.url = url
    self.byteRange = byteRange
    self.number = number
    self.time = time
    self.duration = duration
  }
}
