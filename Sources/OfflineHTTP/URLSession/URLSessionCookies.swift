import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The cookies a ``URLSessionTransport`` request sends and keeps, through the request's
/// ``CookieJar``: one store per content on every platform (on Linux the same libcurl jar
/// ``CurlTransport`` uses), so either transport sees the cookies the other kept.
///
/// Sending: the jar's cookies that match the hop's URL (``CookieMatcher``) go in one
/// `Cookie` header. Keeping: the `Set-Cookie` fields of every response, redirects included,
/// are read by Foundation's `HTTPCookie` (which splits the fields URLSession joined) and
/// added to the jar, except those for a domain the responding host may not set.
enum URLSessionCookies {
  /// The `Cookie` header value the jar has for `url`, nil for none.
  static func header(for url: URL, in jar: CookieJar) -> String? {
    CookieMatcher.header(for: url, in: jar.netscapeLines)
  }

  /// Adds the cookies `response` (to a request for `url`) sets to `jar`.
  static func keep(_ response: HTTPURLResponse, for url: URL, in jar: CookieJar) {
    guard let host = url.host() else { return }
    var fields: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      guard let name = name as? String, name.equalsIgnoringASCIICase("Set-Cookie") else {
        continue
      }
      fields["Set-Cookie"] = "\(value)"
    }
    guard !fields.isEmpty else { return }
    let lines = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url).compactMap {
      cookie -> String? in
      guard CookieMatcher.host(host, maySetFor: cookie.domain) else { return nil }
      // A cookie without a Domain attribute is the host's alone (RFC 6265, section 5.3,
      // step 6); Foundation marks one with a Domain by a leading dot.
      let line = CookieMatcher.Cookie(
        domain: cookie.domain.hasPrefix(".")
          ? String(cookie.domain.dropFirst()).lowercased() : cookie.domain.lowercased(),
        includesSubdomains: cookie.domain.hasPrefix("."), path: cookie.path,
        secure: cookie.isSecure,
        expires: cookie.expiresDate.map { Int64($0.timeIntervalSince1970) } ?? 0,
        httpOnly: cookie.isHTTPOnly, name: cookie.name, value: cookie.value)
      return line.netscapeLine
    }
    jar.keep(lines)
  }
}
