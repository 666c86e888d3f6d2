/// The two text operations header handling repeats for every field of every response, done on
/// UTF-8 bytes: Foundation's `caseInsensitiveCompare` and `trimmingCharacters(in:)` go through
/// `NSString` and cost more than the rest of reading a response head (measured with `perf` on
/// a 1000-segment HLS download).
extension StringProtocol {
  /// Whether `self` and `other` are equal when ASCII letters are compared without case, as
  /// HTTP field names are (RFC 9110, section 5.1).
  func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
    var left = utf8.makeIterator()
    var right = other.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return true
      case (let a?, let b?) where a == b || (a | 0x20 == b | 0x20 && (a | 0x20) &- 0x61 < 26):
        continue
      default: return false
      }
    }
  }
}

extension Substring {
  /// `self` without the spaces and horizontal tabs around it (RFC 9110, section 5.5 calls
  /// them optional white space).
  func trimmingHTTPWhitespace() -> String {
    let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    let bytes = utf8
    guard let first = bytes.firstIndex(where: { !isBlank($0) }),
      let last = bytes.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return String(self[first...last])
  }
}
