/// A video resolution in pixels, written `WIDTHxHEIGHT` (RFC 8216 §4.2 decimal-resolution).
public struct Resolution: Sendable, Equatable, Hashable {
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int

  /// Creates a resolution of `width` by `height` pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}
