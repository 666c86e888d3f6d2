/// A descriptor such as `Role` or `Accessibility` (ISO/IEC 23009-1 §5.8.2): a scheme and a
/// value in it.
public struct Descriptor: Sendable, Equatable {
  /// `@schemeIdUri`, such as `urn:mpeg:dash:role:2011`.
  public var schemeIdUri: String
  /// `@value`, such as `main` or `subtitle`.
  public var value: String?

  /// Creates a descriptor.
  public init(schemeIdUri: String, value: String? = nil) {
    self.schemeIdUri = schemeIdUri
    self.value = value
  }
}
