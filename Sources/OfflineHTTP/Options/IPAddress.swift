import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An IPv4 or IPv6 address as bytes, to compare with `address/bits` entries.
struct IPAddress {
  var bytes: [UInt8]

  init?(_ text: String) {
    var four = in_addr()
    var six = in6_addr()
    if inet_pton(AF_INET, text, &four) == 1 {
      bytes = withUnsafeBytes(of: &four) { Array($0) }
    } else if inet_pton(AF_INET6, text, &six) == 1 {
      bytes = withUnsafeBytes(of: &six) { Array($0) }
    } else {
      return nil
    }
  }

  /// Whether `prefix` (`address` or `address/bits`, of the same family) covers this address.
  func matches(prefix: String) -> Bool {
    let parts = prefix.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let other = IPAddress(String(parts[0])), other.bytes.count == bytes.count else {
      return false
    }
    var bits = bytes.count * 8
    if parts.count == 2 {
      guard let given = Int(parts[1]), given >= 0, given <= bits else { return false }
      if given > 0 { bits = given }
    }
    for index in 0..<bytes.count where index * 8 < bits {
      let count = min(8, bits - index * 8)
      let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - count))
      if bytes[index] & mask != other.bytes[index] & mask { return false }
    }
    return true
  }
}
