/// A sub-range of a resource: `length` bytes starting at `offset` (RFC 8216 §4.3.2.2).
///
/// The parser always resolves the offset, applying the implicit-offset rule, so `offset` is
/// absolute in the resource.
public struct ByteRange: Sendable, Equatable, Hashable {
  /// The number of bytes in the range.
  public var length: Int64
  /// The offset of the first byte from the start of the resource.
  public var offset: Int64

  /// Creates a range of `length` bytes starting at `offset`.
  public init(length: Int64, offset: Int64) {
    self.length = length
    self.offset = offset
  }

  /// The offset just past the last byte of the range (`offset + length`).
  ///
  /// Ranges made by the parser never overflow here; for hand-made ones the sum must fit.
  public var end: Int64 { offset + length }

  /// The range as an HTTP `Range` header value (RFC 9110 §14.1.2), such as
  /// `bytes=0-1023`; nil when the range is empty, negative or ends past `Int64.max`.
  public var httpRangeValue: String? {
    guard length > 0, offset >= 0 else { return nil }
    let (last, overflow) = offset.addingReportingOverflow(length - 1)
    guard !overflow else { return nil }
    return "bytes=\(offset)-\(last)"
  }
}
