#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A host given as a numeric IPv4 or IPv6 address, in network byte order.
///
/// Parsed with `getaddrinfo` and `AI_NUMERICHOST`, which never asks a resolver.
struct NumericAddress: Sendable, Equatable {
  /// 4 bytes for IPv4 (IPv4-mapped IPv6 addresses are unwrapped), 16 for IPv6.
  var bytes: [UInt8]
  /// The interface index of a scoped IPv6 address such as `fe80::1%eth0`, else 0.
  var scopeID: UInt32 = 0

  /// Whether this is an IPv4 address.
  var isIPv4: Bool { bytes.count == 4 }

  /// Whether this is 127.0.0.0/8 or `::1`.
  var isLoopback: Bool {
    isIPv4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
  }

  /// The address as people write it, such as `10.1.2.3` or `fd00::1`.
  var text: String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let family = isIPv4 ? AF_INET : AF_INET6
    let result = bytes.withUnsafeBytes {
      inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count))
    }
    guard result != nil else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Creates an address from raw bytes in network byte order.
  init(bytes: [UInt8], scopeID: UInt32 = 0) {
    self.bytes = bytes
    self.scopeID = scopeID
  }

  /// Parses `host` if it is a numeric address (IPv6 may be in brackets), else returns `nil`.
  init?(numeric host: String) {
    var host = host
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty else { return nil }
    var hints = addrinfo()
    hints.ai_flags = AI_NUMERICHOST
    hints.ai_family = AF_UNSPEC
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list,
      let address = first.pointee.ai_addr
    else { return nil }
    defer { freeaddrinfo(list) }
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
      let value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        $0.pointee.sin_addr
      }
      bytes = withUnsafeBytes(of: value) { Array($0) }
    case AF_INET6:
      let (value, scope) = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        ($0.pointee.sin6_addr, $0.pointee.sin6_scope_id)
      }
      let raw = withUnsafeBytes(of: value) { Array($0) }
      let mapped = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]
      bytes = raw.starts(with: mapped) ? Array(raw.suffix(4)) : raw
      scopeID = scope
    default:
      return nil
    }
  }
}
