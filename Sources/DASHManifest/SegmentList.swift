/// A `SegmentList` (ISO/IEC 23009-1 §5.3.9.3): the segments, one `SegmentURL` each.
public struct SegmentList: Sendable, Equatable {
  /// `@timescale`: units per second of `duration` and the timeline; 1 when absent.
  public var timescale: UInt64?
  /// `@duration`: the duration of every segment, in `timescale` units.
  public var duration: UInt64?
  /// `@startNumber`: the number of the first segment; 1 when absent.
  public var startNumber: UInt64?
  /// `@presentationTimeOffset`, in `timescale` units; players accept a negative one.
  public var presentationTimeOffset: Int64?
  /// The `Initialization` child.
  public var initialization: Initialization?
  /// The `S` entries of the `SegmentTimeline` child, or nil when there is none.
  public var timeline: [SegmentTimelineEntry]?
  /// The segments, in order. Not inherited: a lower level's list replaces them.
  public var segmentURLs: [SegmentURL]

  /// Creates a segment list.
  public init(
    timescale: UInt64? = nil, duration: UInt64? = nil, startNumber: UInt64? = nil,
    presentationTimeOffset: Int64? = nil, initialization: Initialization? = nil,
    timeline: [SegmentTimelineEntry]? = nil, segmentURLs: [SegmentURL] = []
  ) {
    self.timescale = timescale
    self.duration = duration
    self.startNumber = startNumber
    self.presentationTimeOffset = presentationTimeOffset
    self.initialization = initialization
    self.timeline = timeline
    self.segmentURLs = segmentURLs
  }

  /// This list with every missing attribute taken from `parent` (§5.3.9.1); its own
  /// `SegmentURL`s are kept, or the parent's when it has none.
  public func inheriting(from parent: SegmentList?) -> SegmentList {
    guard let parent else { return self }
    return SegmentList(
      timescale: timescale ?? parent.timescale, duration: duration ?? parent.duration,
      startNumber: startNumber ?? parent.startNumber,
      presentationTimeOffset: presentationTimeOffset ?? parent.presentationTimeOffset,
      initialization: initialization ?? parent.initialization,
      timeline: timeline ?? parent.timeline,
      segmentURLs: segmentURLs.isEmpty ? parent.segmentURLs : segmentURLs)
  }
}
