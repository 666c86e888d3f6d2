/// An `AdaptationSet` (ISO/IEC 23009-1 §5.3.3): interchangeable encodings of one component,
/// such as the video, one audio language or one subtitle language.
public struct AdaptationSet: Sendable, Equatable {
  /// `@id`.
  public var id: String?
  /// `@contentType`: `video`, `audio`, `text`, `image`...
  public var contentType: String?
  /// `@lang`: the language (RFC 5646 tag).
  public var lang: String?
  /// Attributes every Representation of the set inherits unless it has its own.
  public var common: CommonAttributes
  /// The `Role` descriptors (`urn:mpeg:dash:role:2011` main, alternate, subtitle...).
  public var roles: [Descriptor]
  /// The `Accessibility` descriptors.
  public var accessibilities: [Descriptor]
  /// The `ContentProtection` descriptors of the set.
  public var contentProtections: [ContentProtection]
  /// The `BaseURL` elements, in document order, with their `dvb:` ranking; several are
  /// alternatives (``SegmentResolver/baseURLChoices(for:in:)``).
  public var baseURLElements: [BaseURL]
  /// The texts of ``baseURLElements``; the first one is used unless a choice says otherwise.
  /// Setting it drops their attributes.
  public var baseURLs: [String] {
    get { baseURLElements.map(\.url) }
    set { baseURLElements = newValue.map { BaseURL($0) } }
  }
  /// Segment information every Representation of the set inherits.
  public var segmentInfo: SegmentInformation
  /// The representations, in document order.
  public var representations: [Representation]

  /// Creates an adaptation set.
  public init(
    id: String? = nil, contentType: String? = nil, lang: String? = nil,
    common: CommonAttributes = .init(), roles: [Descriptor] = [],
    accessibilities: [Descriptor] = [], contentProtections: [ContentProtection] = [],
    baseURLs: [String] = [], segmentInfo: SegmentInformation = .init(),
    representations: [Representation] = []
  ) {
    self.id = id
    self.contentType = contentType
    self.lang = lang
    self.common = common
    self.roles = roles
    self.accessibilities = accessibilities
    self.contentProtections = contentProtections
    self.baseURLElements = baseURLs.map { BaseURL($0) }
    self.segmentInfo = segmentInfo
    self.representations = representations
  }
}
