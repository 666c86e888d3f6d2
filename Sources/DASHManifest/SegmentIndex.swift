/// A Segment Index box, `sidx` (ISO/IEC 14496-12 §8.16.3), versions 0 and 1: the segments of
/// one file, as sizes and durations after an anchor.
///
/// ```swift
/// let sidx = try SegmentIndex.parse(bytesOfIndexRange)
/// let ranges = try sidx.byteRanges(indexRange: indexRange)  // one per segment
/// ```
public struct SegmentIndex: Sendable, Equatable {
  /// One reference of the box.
  public struct Reference: Sendable, Equatable {
    /// Whether the reference points at another `sidx` (a hierarchical index) rather than at
    /// media.
    public var isIndex: Bool
    /// The referenced bytes.
    public var size: UInt32
    /// The subsegment's duration, in `timescale` units.
    public var duration: UInt32
    /// Whether the subsegment starts with a stream access point.
    public var startsWithSAP: Bool

    /// Creates a reference.
    public init(isIndex: Bool = false, size: UInt32, duration: UInt32, startsWithSAP: Bool = true) {
      self.isIndex = isIndex
      self.size = size
      self.duration = duration
      self.startsWithSAP = startsWithSAP
    }
  }

  /// The box's version: 0 (32-bit times and offset) or 1 (64-bit).
  public var version: UInt8
  /// `reference_ID`: the track the index describes.
  public var referenceID: UInt32
  /// Units per second of the times.
  public var timescale: UInt32
  /// `earliest_presentation_time` of the first subsegment.
  public var earliestPresentationTime: UInt64
  /// `first_offset`: bytes from the end of the box (the anchor) to the first subsegment.
  public var firstOffset: UInt64
  /// The references, in order.
  public var references: [Reference]
  /// Where the box starts within the bytes it was parsed from.
  public var boxOffset: UInt64
  /// The box's size in bytes.
  public var boxSize: UInt64

  /// Creates an index.
  public init(
    version: UInt8 = 0, referenceID: UInt32 = 1, timescale: UInt32,
    earliestPresentationTime: UInt64 = 0, firstOffset: UInt64 = 0,
    references: [Reference], boxOffset: UInt64 = 0, boxSize: UInt64
  ) {
    self.version = version
    self.referenceID = referenceID
    self.timescale = timescale
    self.earliestPresentationTime = earliestPresentationTime
    self.firstOffset = firstOffset
    self.references = references
    self.boxOffset = boxOffset
    self.boxSize = boxSize
  }

  /// The byte range of each referenced subsegment, in the file whose `indexRange` these
  /// bytes were: the first starts `firstOffset` bytes after the end of the box.
  ///
  /// - Throws: `MPDError`: `unsupported` for a reference to another `sidx` (hierarchical
  ///   indexes), `malformedSegmentIndex` for an empty subsegment or offsets past
  ///   `UInt64.max`.
  public func byteRanges(indexRange: ByteRange) throws -> [ByteRange] {
    let (boxStart, o1) = indexRange.first.addingReportingOverflow(boxOffset)
    let (anchor, o2) = boxStart.addingReportingOverflow(boxSize)
    var (offset, o3) = anchor.addingReportingOverflow(firstOffset)
    guard !(o1 || o2 || o3) else { throw SegmentIndex.error("Its offsets overflow.") }
    var ranges: [ByteRange] = []
    ranges.reserveCapacity(references.count)
    for (position, reference) in references.enumerated() {
      guard !reference.isIndex else {
        throw MPDError(
          .unsupported, at: "sidx",
          "Reference \(position + 1) points at another sidx; hierarchical indexes are not supported."
        )
      }
      guard reference.size > 0 else {
        throw SegmentIndex.error("Reference \(position + 1) has a size of 0.")
      }
      let (last, overflow) = offset.addingReportingOverflow(UInt64(reference.size) - 1)
      guard !overflow, let range = ByteRange(first: offset, last: last), last < UInt64.max else {
        throw SegmentIndex.error("Reference \(position + 1) ends past the largest offset.")
      }
      ranges.append(range)
      offset = last + 1
    }
    return ranges
  }

  static func error(_ message: String) -> MPDError {
    MPDError(.malformedSegmentIndex, at: "sidx", message)
  }
}
