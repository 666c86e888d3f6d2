import Foundation

/// Hosts reached without a proxy, written as curl's `--noproxy` and `no_proxy` take them.
///
/// Entries are separated by commas or blanks. A name matches the host itself and every host
/// under it (`example.com` matches `www.example.com`, not `notexample.com`); a leading or
/// trailing dot is ignored, and case does not matter. When the host is an IP address only
/// addresses match it, exactly or by prefix (`10.0.0.0/8`, `fd00::/8`): `localhost` does not
/// match `127.0.0.1`. A list that is just `*` matches every host; an empty list none.
public struct NoProxyList: Sendable, Equatable {
  /// The entries, as written.
  public var entries: [String]
  /// Whether the list is `*`.
  public var matchesEveryHost: Bool

  /// Parses a list such as `localhost, .example.com, 10.0.0.0/8`.
  public init(parsing text: String) {
    matchesEveryHost = text == "*"
    entries = text.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
  }

  /// Whether a request to `host` (a name, an IPv4 address, or an IPv6 one with or without
  /// brackets) is made without the proxy.
  public func contains(host: String) -> Bool {
    if matchesEveryHost { return true }
    var name = Substring(host)
    if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
    guard !name.isEmpty else { return false }
    if let address = IPAddress(String(name)) {
      return entries.contains { address.matches(prefix: $0) }
    }
    if name.hasSuffix(".") { name = name.dropLast() }
    let host = name.lowercased()
    return entries.contains { entry in
      var token = Substring(entry.lowercased())
      if token.hasSuffix(".") { token = token.dropLast() }
      if token.hasPrefix(".") { token = token.dropFirst() }
      guard !token.isEmpty else { return false }
      return host == token || host.hasSuffix("." + token)
    }
  }
}
