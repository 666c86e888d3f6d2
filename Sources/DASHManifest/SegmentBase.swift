/// A `SegmentBase` (ISO/IEC 23009-1 §5.3.9.2): one file, whose segments an index (`sidx` box,
/// see `SegmentIndex`) in `indexRange` describes.
public struct SegmentBase: Sendable, Equatable {
  /// `@timescale`: units per second of the times; 1 when absent.
  public var timescale: UInt64?
  /// `@presentationTimeOffset`, in `timescale` units; players accept a negative one.
  public var presentationTimeOffset: Int64?
  /// `@indexRange`: the bytes of the `sidx` box.
  public var indexRange: ByteRange?
  /// The `Initialization` child.
  public var initialization: Initialization?

  /// Creates a segment base.
  public init(
    timescale: UInt64? = nil, presentationTimeOffset: Int64? = nil,
    indexRange: ByteRange? = nil, initialization: Initialization? = nil
  ) {
    self.timescale = timescale
    self.presentationTimeOffset = presentationTimeOffset
    self.indexRange = indexRange
    self.initialization = initialization
  }

  /// This element with every missing attribute taken from `parent` (§5.3.9.1).
  public func inheriting(from parent: SegmentBase?) -> SegmentBase {
    guard let parent else { return self }
    return SegmentBase(
      timescale: timescale ?? parent.timescale,
      presentationTimeOffset: presentationTimeOffset ?? parent.presentationTimeOffset,
      indexRange: indexRange ?? parent.indexRange,
      initialization: initialization ?? parent.initialization)
  }
}
