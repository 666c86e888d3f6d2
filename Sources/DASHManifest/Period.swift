/// A `Period` (ISO/IEC 23009-1 §5.3.2): a stretch of the presentation with its own content.
public struct Period: Sendable, Equatable {
  /// `@id`.
  public var id: String?
  /// `@start` in seconds from the start of the presentation.
  public var start: Double?
  /// `@duration` in seconds.
  public var duration: Double?
  /// The `BaseURL` elements, in document order, with their `dvb:` ranking; several are
  /// alternatives (``SegmentResolver/baseURLChoices(for:in:)``).
  public var baseURLElements: [BaseURL]
  /// The texts of ``baseURLElements``; the first one is used unless a choice says otherwise.
  /// Setting it drops their attributes.
  public var baseURLs: [String] {
    get { baseURLElements.map(\.url) }
    set { baseURLElements = newValue.map { BaseURL($0) } }
  }
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
    self.baseURLElements = baseURLs.map { BaseURL($0) }
    self.segmentInfo = segmentInfo
    self.adaptationSets = adaptationSets
  }
}
