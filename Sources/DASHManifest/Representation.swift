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
  /// The `BaseURL` elements of the representation, in document order; the first one is used.
  public var baseURLs: [String]
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
    self.baseURLs = baseURLs
    self.segmentInfo = segmentInfo
  }
}
