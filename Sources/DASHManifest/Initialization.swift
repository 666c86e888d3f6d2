/// An `Initialization` (or `RepresentationIndex`) element (ISO/IEC 23009-1 §5.3.9.2.2): where
/// the initialization section is, as a URL, a byte range, or both.
public struct Initialization: Sendable, Equatable {
  /// `@sourceURL`, relative to the Representation's base URL; nil means the base URL itself.
  public var sourceURL: String?
  /// `@range`: the bytes of the resource that hold the section.
  public var range: ByteRange?

  /// Creates an initialization reference.
  public init(sourceURL: String? = nil, range: ByteRange? = nil) {
    self.sourceURL = sourceURL
    self.range = range
  }
}
