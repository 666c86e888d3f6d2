import Foundation

/// Picks the cookies of a jar that go with one request, as curl's cookie engine does
/// (RFC 6265, section 5.4): for transports that send a `Cookie` header of their own
/// (``URLSessionTransport``) rather than libcurl's engine.
///
/// Cookies are Netscape `cookies.txt` lines, the form ``CookieJar`` holds them in on every
/// platform. A cookie goes with a request when its domain matches the host (the host itself,
/// or a subdomain when the line's second field is `TRUE`), its path is a prefix of the
/// request's path at a `/`, it is not `Secure` on a plain http request, and it has not
/// expired. Longer paths go first, as curl sends them.
enum CookieMatcher {
  /// One `cookies.txt` line, read.
  struct Cookie: Equatable, Sendable {
    /// The domain, lowercased, without a leading dot.
    var domain: String
    /// Whether subdomains of ``domain`` get the cookie too.
    var includesSubdomains: Bool
    /// The path the cookie is for.
    var path: String
    /// Whether it goes only over https.
    var secure: Bool
    /// When it expires, in seconds since 1970; 0 for a session cookie.
    var expires: Int64
    /// Whether scripts may not read it (`#HttpOnly_`); kept, not used for matching.
    var httpOnly: Bool
    /// The cookie's name.
    var name: String
    /// The cookie's value.
    var value: String

    /// The cookie as a `cookies.txt` line.
    var netscapeLine: String {
      let host = includesSubdomains ? ".\(domain)" : domain
      let fields = [
        host, includesSubdomains ? "TRUE" : "FALSE", path, secure ? "TRUE" : "FALSE",
        String(expires), name, value,
      ]
      return (httpOnly ? "#HttpOnly_" : "") + fields.joined(separator: "\t")
    }
  }

  /// Reads one `cookies.txt` line; nil for a comment, a blank or a malformed line.
  static func cookie(fromNetscapeLine raw: String) -> Cookie? {
    var line = Substring(raw)
    if line.last == "\r" { line = line.dropLast() }
    var httpOnly = false
    if line.hasPrefix("#HttpOnly_") {
      line = line.dropFirst("#HttpOnly_".count)
      httpOnly = true
    } else if line.hasPrefix("#") {
      return nil
    }
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 7, let expires = Int64(fields[4]), !fields[5].isEmpty else {
      return nil
    }
    var domain = fields[0].lowercased()
    let dotted = domain.hasPrefix(".")
    if dotted { domain.removeFirst() }
    guard !domain.isEmpty else { return nil }
    return Cookie(
      domain: domain, includesSubdomains: dotted || fields[1].uppercased() == "TRUE",
      path: fields[2].isEmpty ? "/" : String(fields[2]), secure: fields[3].uppercased() == "TRUE",
      expires: expires, httpOnly: httpOnly, name: String(fields[5]), value: String(fields[6]))
  }

  /// The cookies of `lines` that go with a request to `url` at `now`, longest path first.
  static func cookies(for url: URL, in lines: [String], now: Date = Date()) -> [Cookie] {
    guard let host = url.host()?.lowercased() else { return [] }
    let path = url.path(percentEncoded: true).isEmpty ? "/" : url.path(percentEncoded: true)
    let https = url.scheme?.lowercased() == "https"
    let seconds = Int64(now.timeIntervalSince1970)
    let matching = lines.compactMap(cookie(fromNetscapeLine:)).filter { cookie in
      (cookie.expires == 0 || cookie.expires > seconds) && (https || !cookie.secure)
        && domainMatches(host, cookie) && pathMatches(path, cookie.path)
    }
    // A stable sort: cookies of the same path length keep the jar's order.
    return matching.enumerated().sorted {
      ($0.element.path.count, $1.offset) > ($1.element.path.count, $0.offset)
    }.map(\.element)
  }

  /// The `Cookie` header value for a request to `url`: `name=value` pairs joined by `; `,
  /// nil when no cookie matches.
  static func header(for url: URL, in lines: [String], now: Date = Date()) -> String? {
    let cookies = cookies(for: url, in: lines, now: now)
    guard !cookies.isEmpty else { return nil }
    return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }

  /// Whether a server at `host` may set a cookie for `domain` (RFC 6265, section 5.3,
  /// step 6): its own name or a domain it is under, never an address's neighbour.
  static func host(_ host: String, maySetFor domain: String) -> Bool {
    let host = host.lowercased()
    var domain = domain.lowercased()
    if domain.hasPrefix(".") { domain.removeFirst() }
    guard !domain.isEmpty else { return false }
    if host == domain { return true }
    return IPAddress(host) == nil && host.hasSuffix(".\(domain)") && domain.contains(".")
  }

  private static func domainMatches(_ host: String, _ cookie: Cookie) -> Bool {
    if host == cookie.domain { return true }
    return cookie.includesSubdomains && IPAddress(host) == nil
      && host.hasSuffix(".\(cookie.domain)")
  }

  /// RFC 6265, section 5.1.4.
  private static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
    guard requestPath.hasPrefix(cookiePath) else { return false }
    return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
      || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
  }
}
