import Foundation

/// Which redirects a transport follows.
///
/// Only `http` and `https` targets are followed, `https` never drops to `http` (a downgrade
/// would hand the rest of the exchange to anyone on the path), and at most
/// ``maximumCount`` hops are taken. Relative `Location` values resolve against the URL that
/// sent them (RFC 9110, section 10.2.2). Credentials (`Authorization`, `Cookie`) are not
/// carried to another origin.
public struct RedirectPolicy: Sendable, Equatable {
  /// The most redirects followed for one request.
  public var maximumCount: Int

  /// Creates a policy; `maximumCount` 0 follows none.
  public init(maximumCount: Int = 10) {
    self.maximumCount = maximumCount
  }

  /// The status codes that redirect (RFC 9110, section 15.4).
  public static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

  /// The URL to request next, after `hops` redirects were already followed.
  ///
  /// - Throws: ``HTTPError`` when the target is refused or the limit is passed.
  public func nextURL(from current: URL, location: String, hops: Int) throws(HTTPError) -> URL {
    guard hops < maximumCount else {
      throw HTTPError(.tooManyRedirects(hops), url: current)
    }
    guard let target = URL(string: location, relativeTo: current)?.absoluteURL,
      let scheme = target.scheme?.lowercased()
    else {
      throw HTTPError(.redirectRefused(to: location), url: current)
    }
    guard URL.isHTTPScheme(scheme) else {
      throw HTTPError(.redirectRefused(to: target.redactedForDisplay), url: current)
    }
    if current.scheme?.lowercased() == "https" && scheme == "http" {
      throw HTTPError(.redirectRefused(to: target.redactedForDisplay), url: current)
    }
    return target
  }

  /// Request headers that carry credentials; they are not sent on to another origin
  /// (RFC 9110, section 15.4), as curl does since 7.58.
  public static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

  /// Whether two URLs share scheme, host and port.
  public static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
    a.scheme?.lowercased() == b.scheme?.lowercased()
      && a.host()?.lowercased() == b.host()?.lowercased()
      && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
  }

  private static func defaultPort(_ url: URL) -> Int {
    url.scheme?.lowercased() == "https" ? 443 : 80
  }
}
