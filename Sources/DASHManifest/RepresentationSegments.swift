/// What to fetch for one Representation, in order: its initialization section (if any) and
/// its media segments, as `SegmentResolver` lists them.
///
/// For a `SegmentBase` with an `indexRange`, `segments` is empty and `index` says which bytes
/// hold the `sidx` box: fetch them, parse them with `SegmentIndex.parse(_:)`, and call
/// `applying(_:)`.
public struct RepresentationSegments: Sendable, Equatable {
  /// The initialization section, or nil when the segments stand alone.
  public var initialization: SegmentReference?
  /// The index (`sidx`) to read before the segments are known, or nil.
  public var index: SegmentReference?
  /// The media segments, in presentation order.
  public var segments: [SegmentReference]
  /// Units per second of the segments' `time` and `duration`.
  public var timescale: UInt64
  /// `@presentationTimeOffset`, in `timescale` units; it may be negative.
  public var presentationTimeOffset: Int64

  /// Creates a segment listing.
  public init(
    initialization: SegmentReference? = nil, index: SegmentReference? = nil,
    segments: [SegmentReference] = [], timescale: UInt64 = 1, presentationTimeOffset: Int64 = 0
  ) {
    self.initialization = initialization
    self.index = index
    self.segments = segments
    self.timescale = timescale
    self.presentationTimeOffset = presentationTimeOffset
  }

  /// The listing with the segments `index` describes: byte ranges of the resource `index`
  /// was read from, numbered from 1, timed in the index's timescale.
  ///
  /// `presentationTimeOffset` is converted to the index's timescale.
  ///
  /// - Throws: `MPDError` (`malformedSegmentIndex`) when there is no `index` to apply, or
  ///   when a segment would end past the largest offset; `malformedValue` when the offset
  ///   does not fit the index's timescale.
  public func applying(_ sidx: SegmentIndex) throws -> RepresentationSegments {
    guard let index, let indexRange = index.byteRange else {
      throw MPDError(
        .malformedSegmentIndex, at: "sidx", "These segments have no index range to apply.")
    }
    let ranges = try sidx.byteRanges(indexRange: indexRange)
    var result = self
    result.index = nil
    result.timescale = UInt64(sidx.timescale)
    // The offset is in the SegmentBase's timescale; the segments' times are in the index's.
    let magnitude = presentationTimeOffset.magnitude
    let (high, low) = magnitude.multipliedFullWidth(by: UInt64(sidx.timescale))
    let converted = high < timescale ? timescale.dividingFullWidth((high, low)).quotient : nil
    guard let converted, let offset = Int64(exactly: converted) else {
      throw MPDError(
        .malformedValue, at: "sidx",
        "The presentation time offset overflows in the index's timescale.")
    }
    result.presentationTimeOffset = presentationTimeOffset < 0 ? -offset : offset
    var time = sidx.earliestPresentationTime
    result.segments = zip(ranges, sidx.references).enumerated().map { position, pair in
      let start = time
      time = time.addingReportingOverflow(UInt64(pair.1.duration)).partialValue
      return SegmentReference(
        url: index.url, byteRange: pair.0, number: UInt64(position + 1), time: start,
        duration: UInt64(pair.1.duration))
    }
    return result
  }
}
