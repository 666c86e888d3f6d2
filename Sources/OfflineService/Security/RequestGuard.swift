import Foundation

/// Decides, from a request's line and headers alone, whether the service answers it: the
/// `Host` must be one the service answers to (against DNS rebinding), the token must be
/// shown when one is set, and a request that changes state must come from the same origin
/// or carry the token in an `Authorization` header (no cross-site form can start a
/// download). A pure value: no I/O, one rule per check.
struct RequestGuard: Sendable {
  /// The name of the cookie that carries the token for a browser.
  static let cookieName = "offline_token"

  /// The token every request must show, if any.
  let token: String?
  /// `host:port` values (lower case) a `Host` header may carry.
  let allowedHosts: Set<String>
  /// Whether any numeric IP address in `Host` is accepted (a listener on all interfaces,
  /// whose clients know it by one of the machine's addresses; the token guards it).
  let acceptsAnyAddress: Bool
  /// Paths whose requests prove themselves in the body instead (`/jsonrpc`, `token:`).
  let selfAuthenticatingPaths: Set<String>

  /// A guard for a listener on `address` that also answers to `names`.
  init(
    address: ListenAddress, token: String?, names: [String] = [],
    selfAuthenticatingPaths: Set<String> = []
  ) {
    var hosts: Set<String> = [address.description.lowercased()]
    if address.isLoopback { hosts.insert("localhost:\(address.port)") }
    for name in names { hosts.insert("\(name.lowercased()):\(address.port)") }
    if address.port == 80 { hosts.formUnion(hosts.map { String($0.dropLast(3)) }) }
    self.allowedHosts = hosts
    self.token = token
    self.acceptsAnyAddress = !address.isLoopback
    self.selfAuthenticatingPaths = selfAuthenticatingPaths
  }

  /// Nil when the request may go on; otherwise the refusal (4xx) or, for a browser opening
  /// the printed `?token=` link, a redirect that sets the token cookie.
  func check(_ request: HTTPRequest) -> HTTPResponse? {
    guard let host = request.header("host")?.lowercased(), !host.isEmpty else {
      return .text(400, "The request has no Host header.")
    }
    guard isAllowed(host: host) else {
      return .text(
        403,
        "This service does not answer to the name '\(Self.printable(host))'; start it"
          + " with --allow-host to allow a name.")
    }
    let bearer = bearerToken(request)
    if let token {
      if request.isSafe, let shown = request.query["token"] {
        guard Self.same(shown, token) else { return unauthorized() }
        return .redirect(
          to: Self.withoutQuery(request.rawPath),
          headers: [
            (
              "Set-Cookie",
              "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            )
          ])
      }
      let shown = bearer ?? request.cookie(Self.cookieName)
      let exempt = !request.isSafe && selfAuthenticatingPaths.contains(request.rawPath)
      if !exempt {
        guard let shown, Self.same(shown, token) else { return unauthorized() }
      }
    }
    if !request.isSafe && !(token != nil && bearer.map { Self.same($0, token!) } == true) {
      if let refusal = crossSiteRefusal(request, host: host) { return refusal }
    }
    return nil
  }

  /// Why a state-changing request without the bearer token is refused, if it is: a foreign
  /// `Origin`, a `Sec-Fetch-Site` other than same-origin, or a POST a cross-site form could
  /// send (form or plain-text content types need no CORS preflight).
  private func crossSiteRefusal(_ request: HTTPRequest, host: String) -> HTTPResponse? {
    let refusal = HTTPResponse.text(
      403,
      "Cross-site requests may not change anything here; send the token in an"
        + " Authorization header.")
    if let origin = request.header("origin")?.lowercased(), origin != "http://\(host)" {
      return refusal
    }
    if let site = request.header("sec-fetch-site")?.lowercased(),
      site != "same-origin" && site != "none"
    {
      return refusal
    }
    if request.method == "POST" {
      let type = (request.header("content-type") ?? "").lowercased()
      let simple = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]
      if simple.contains(where: { type.hasPrefix($0) }) { return refusal }
    }
    return nil
  }

  private func isAllowed(host: String) -> Bool {
    if allowedHosts.contains(host) { return true }
    guard acceptsAnyAddress else { return false }
    var name = Substring(host)
    if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
      name = name[name.index(after: name.startIndex)..<close]
    } else if let colon = name.lastIndex(of: ":") {
      name = name[..<colon]
    }
    return ListenAddress(parsing: (name.contains(":") ? "[\(name)]" : String(name)) + ":0") != nil
  }

  private func bearerToken(_ request: HTTPRequest) -> String? {
    guard let value = request.header("authorization") else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingCharacters(in: .whitespaces)
  }

  private func unauthorized() -> HTTPResponse {
    .text(
      401,
      "A token is required: open the link 'offline serve' printed, or send"
        + " 'Authorization: Bearer TOKEN'.", headers: [("WWW-Authenticate", "Bearer")])
  }

  /// Compares in time that depends on the lengths only, not on where the bytes differ.
  static func same(_ shown: String, _ token: String) -> Bool {
    let a = Array(shown.utf8)
    let b = Array(token.utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0
  }

  private static func withoutQuery(_ path: String) -> String {
    path.isEmpty ? "/" : path
  }

  /// `text` cut and with control characters replaced, to quote back safely.
  static func printable(_ text: String) -> String {
    String(
      text.unicodeScalars.prefix(100).map {
        $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0)
      })
  }
}
