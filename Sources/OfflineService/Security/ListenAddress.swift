import Foundation

/// Where the service listens: a numeric IPv4 or IPv6 address and a port, as
/// `127.0.0.1:8080`, `[::1]:8080` or `0.0.0.0:8080` (`localhost` means `127.0.0.1`).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  /// The numeric address, without brackets.
  public var host: String
  /// The port; 0 lets the system choose one.
  public var port: Int

  /// The default: `127.0.0.1:8380`, reachable from this machine only.
  public static let `default` = ListenAddress(host: "127.0.0.1", port: 8380)

  /// An address from its parts; `host` must be numeric.
  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// Parses `ADDR:PORT`; nil when the address is not numeric or the port not in 0…65535.
  public init?(parsing text: String) {
    var host: Substring
    var portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else { return nil }
      portText = rest.dropFirst()
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      guard !host.contains(":") else { return nil }
    }
    if host == "localhost" { host = "127.0.0.1" }
    guard let port = Int(portText), (0...65535).contains(port), Self.isNumeric(String(host))
    else { return nil }
    self.host = String(host)
    self.port = port
  }

  /// Whether the address is IPv6.
  public var isIPv6: Bool { host.contains(":") }

  /// Whether only this machine can reach the address (127.0.0.0/8 or ::1).
  public var isLoopback: Bool {
    if isIPv6 { return Self.bytes6(host) == Self.bytes6("::1") }
    return host.split(separator: ".").first == "127"
  }

  /// `host:port`, with brackets around an IPv6 address.
  public var description: String { "\(isIPv6 ? "[\(host)]" : host):\(port)" }

  /// Calls `body` with the address as a `sockaddr`.
  func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
    if isIPv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = in_port_t(UInt16(port).bigEndian)
      _ = inet_pton(AF_INET6, host, &address.sin6_addr)
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
      }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    _ = inet_pton(AF_INET, host, &address.sin_addr)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
    }
  }

  private static func isNumeric(_ host: String) -> Bool {
    if host.contains(":") { return bytes6(host) != nil }
    var address = in_addr()
    return inet_pton(AF_INET, host, &address) == 1
  }

  private static func bytes6(_ host: String) -> [UInt8]? {
    var address = in6_addr()
    guard inet_pton(AF_INET6, host, &address) == 1 else { return nil }
    return withUnsafeBytes(of: &address) { Array($0) }
  }
}
