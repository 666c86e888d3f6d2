/// A `Period` (ISO/IEC 23009-1 §5.3.2): a stretch of the presentation with its own content.
public struct Period: Sendable, Equatable {
  /// `@id`.
  public var id: String?
  /// `@start` in seconds from the start of the presentation.
  public var start: Double?
  /// `@duration` in seconds.
  public var duration: Double?
  /// The `BaseURL` elements of the period, in document order; the first one is used.
  public var baseURLs: [String]
  /// Segment information every Representation of the period inherits.
  public var segmentInfo: SegmentInformation
  /// The adaptation sets, in document order.
  public var adaptationSets: [AdaptationSet]

  /// Creates a period.
  public init(
    id: String? = nil, start: Double? = nil, duration: Double? = nil, baseURLs: [String] = [],
    segmentInfo: SegmentInformation = .init(), adaptationSets: [AdaptationSet] = []
  ) {
    self.id = id
    self.start = start
    self.duration = duration
    self.baseURLs = baseURLs
    self.segmentInfo = segmentInfo
    self.adaptationSets = adaptationSets
  }
}
