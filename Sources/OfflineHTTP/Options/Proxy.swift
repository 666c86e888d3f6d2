import Foundation

/// A proxy for every request of a source, as curl's `--proxy` takes it.
public struct Proxy: Sendable, Equatable {
  /// The schemes a proxy may be reached with.
  public enum Scheme: String, Sendable, CaseIterable {
    /// An HTTP proxy (CONNECT for https origins).
    case http
    /// An HTTP proxy reached over TLS.
    case https
    /// SOCKS5, the proxy resolving host names.
    case socks5h
    /// SOCKS5, host names resolved here.
    case socks5
  }

  /// The proxy's URL, such as `http://proxy.example:3128`; may carry `user:password@`.
  public var url: URL
  /// Its scheme.
  public var scheme: Scheme

  /// Parses a proxy URL; a URL without a scheme is an HTTP proxy, as in curl.
  ///
  /// - Throws: ``RequestOptionError`` (for `--proxy`) for an unknown scheme or no host.
  public init(parsing text: String) throws(RequestOptionError) {
    let written = text.contains("://") ? text : "http://" + text
    guard let url = URL(string: written), let host = url.host(), !host.isEmpty else {
      throw RequestOptionError(option: "--proxy", message: "'\(Self.redacted(text))' is not a URL")
    }
    guard let scheme = Scheme(rawValue: url.scheme?.lowercased() ?? "") else {
      let names = Scheme.allCases.map(\.rawValue).joined(separator: ", ")
      throw RequestOptionError(
        option: "--proxy",
        message: "the scheme '\(url.scheme ?? "")' is not one of \(names)")
    }
    self.url = url
    self.scheme = scheme
  }

  /// The URL with any password shown as `<redacted>`.
  public var redactedDescription: String { Self.redacted(url.absoluteString) }

  private static func redacted(_ text: String) -> String {
    guard let at = text.firstIndex(of: "@"), let start = text.range(of: "://")?.upperBound,
      start < at, let colon = text[start..<at].firstIndex(of: ":")
    else { return text }
    return String(text[..<text.index(after: colon)]) + "<redacted>" + String(text[at...])
  }
}
