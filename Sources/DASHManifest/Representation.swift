/// A `Representation` (ISO/IEC 23009-1 §5.3.5): one encoding that a player can fetch.
public struct Representation: Sendable, Equatable {
  /// `@id`, the value of `$RepresentationID$`.
  public var id: String
  /// `@bandwidth` in bits per second, the value of `$Bandwidth$`; nil when the manifest does
  /// not say (unknown: a template that uses `$Bandwidth$` cannot be filled in then).
  public var bandwidth: Int?
  /// The representation's own common attributes (see `CommonAttributes.inheriting(from:)`).
  public var common: CommonAttributes
  /// The `ContentProtection` descriptors of the representation.
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
  /// The representation's own segment information.
  public var segmentInfo: SegmentInformation

  /// Creates a representation.
  public init(
    id: String, bandwidth: Int?, common: CommonAttributes = .init(),
    contentProtections: [ContentProtection] = [], baseURLs: [String] = [],
    segmentInfo: SegmentInformation = .init()
  ) {
    self.id = id
    self.bandwidth = bandwidth
    self.common = common
    self.contentProtections = contentProtections
    self.baseURLElements = baseURLs.map { BaseURL($0) }
    self.segmentInfo = segmentInfo
  }
}
