/// A byte range of a resource, as DASH writes it: `first-last`, both inclusive
/// (ISO/IEC 23009-1 §5.3.9.2, RFC 9110 §14.1.2).
public struct ByteRange: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// The offset of the first byte.
  public var first: UInt64
  /// The offset of the last byte; never less than `first`.
  public var last: UInt64

  /// Creates the range `first...last`; nil when `last` is less than `first`.
  public init?(first: UInt64, last: UInt64) {
    guard last >= first else { return nil }
    self.first = first
    self.last = last
  }

  /// Parses `first-last`; nil for anything else (an open or suffix range included).
  public init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
      let first = UInt64(parts[0]), let last = UInt64(parts[1])
    else { return nil }
    self.init(first: first, last: last)
  }

  /// The number of bytes in the range; nil for the one range, 0 to `UInt64.max`, whose
  /// length does not fit.
  public var length: UInt64? {
    let (length, overflow) = (last - first).addingReportingOverflow(1)
    return overflow ? nil : length
  }

  /// The range as DASH and HTTP write it (`first-last`); prefix `bytes=` for a `Range` header.
  public var description: String { "\(first)-\(last)" }
}

extension Character {
  /// Whether the character is one of `0`...`9`.
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
