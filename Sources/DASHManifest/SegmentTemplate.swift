/// A `SegmentTemplate` (ISO/IEC 23009-1 §5.3.9.4): segment URLs made by substituting
/// `$RepresentationID$`, `$Number$`, `$Time$` and `$Bandwidth$` (see `URLTemplate`).
public struct SegmentTemplate: Sendable, Equatable {
  /// `@media`: the template of the media segments' URLs.
  public var media: String?
  /// `@initialization`: the template of the initialization section's URL.
  public var initializationTemplate: String?
  /// `@index`: the template of the index segments' URLs.
  public var index: String?
  /// `@timescale`: units per second of `duration` and the timeline; 1 when absent.
  public var timescale: UInt64?
  /// `@duration`: the duration of every segment, in `timescale` units, when there is no
  /// timeline.
  public var duration: UInt64?
  /// `@startNumber`: the value of `$Number$` for the first segment; 1 when absent.
  public var startNumber: UInt64?
  /// `@presentationTimeOffset`, in `timescale` units; players accept a negative one.
  public var presentationTimeOffset: Int64?
  /// The `Initialization` child, used when there is no `@initialization`.
  public var initialization: Initialization?
  /// The `S` entries of the `SegmentTimeline` child, or nil when there is none.
  public var timeline: [SegmentTimelineEntry]?

  /// Creates a segment template.
  public init(
    media: String? = nil, initializationTemplate: String? = nil, index: String? = nil,
    timescale: UInt64? = nil, duration: UInt64? = nil, startNumber: UInt64? = nil,
    presentationTimeOffset: Int64? = nil, initialization: Initialization? = nil,
    timeline: [SegmentTimelineEntry]? = nil
  ) {
    self.media = media
    self.initializationTemplate = initializationTemplate
    self.index = index
    self.timescale = timescale
    self.duration = duration
    self.startNumber = startNumber
    self.presentationTimeOffset = presentationTimeOffset
    self.initialization = initialization
    self.timeline = timeline
  }

  /// This template with every missing attribute and child taken from `parent` (§5.3.9.1).
  public func inheriting(from parent: SegmentTemplate?) -> SegmentTemplate {
    guard let parent else { return self }
    return SegmentTemplate(
      media: media ?? parent.media,
      initializationTemplate: initializationTemplate ?? parent.initializationTemplate,
      index: index ?? parent.index, timescale: timescale ?? parent.timescale,
      duration: duration ?? parent.duration, startNumber: startNumber ?? parent.startNumber,
      presentationTimeOffset: presentationTimeOffset ?? parent.presentationTimeOffset,
      initialization: initialization ?? parent.initialization,
      timeline: timeline ?? parent.timeline)
  }
}
