import Foundation

/// How every request of one source is made: extra header fields, cookies, credentials, the
/// user agent and referer, a proxy, and a rate limit.
///
/// One value travels with a source into every request made for it (a file, or a stream's
/// playlists, segments, keys and init sections), so all are fetched the same way. Secrets
/// (credentials, netrc's, `Authorization`, `Cookie`, `Proxy-Authorization`, and the header
/// names in ``secretHeaderNames``) go only to the origin of the URL the user gave
/// (``secretsOrigin``) and the ``trustedOrigins``, whatever origin a playlist or manifest
/// names; never to another origin after a redirect unless ``sendsSecretsAcrossRedirects`` is
/// set; and they are never shown: ``redactedDescription`` prints them as `<redacted>`.
/// Cookies from ``cookieFile`` and those servers set follow their own domain rules.
///
/// ```swift
/// var options = RequestOptions()
/// options.headers.add(name: "Authorization", value: "Bearer \(token)")
/// options.referer = "https://example.com/course/7"
/// options.rateLimit = try ByteRate(parsing: "2M")
/// ```
public struct RequestOptions: Sendable, Equatable {
  /// Header fields added to every request, in order.
  public var headers: HTTPHeaders
  /// Names of further header fields that carry secrets, compared case-insensitively.
  public var secretHeaderNames: Set<String>
  /// A Netscape/Mozilla `cookies.txt` file to send cookies from (what `curl -b` and
  /// `yt-dlp --cookies` read); cookies the server sets are kept for the later requests of
  /// the same source.
  public var cookieFile: String?
  /// HTTP Basic credentials.
  public var credentials: Credentials?
  /// Reads credentials for the host from a `.netrc` file, as curl does: nil for none, an
  /// empty string for `~/.netrc`.
  public var netrcFile: String?
  /// The `User-Agent`, instead of OfflineKit's own.
  public var userAgent: String?
  /// The `Referer` sent with every request.
  public var referer: String?
  /// The proxy: nil follows the environment as curl does (`http_proxy`, `https_proxy`,
  /// `all_proxy`, `no_proxy`).
  public var proxy: Proxy?
  /// Hosts reached without the proxy (overrides `no_proxy`), as curl's `--noproxy`.
  public var noProxy: [String]?
  /// A PEM file of CA certificates to trust for this source instead of the transport's
  /// choice (curl's `--cacert`); nil keeps the transport's (see ``TrustedCAs``).
  public var caFile: String?
  /// At most this many bytes per second for this source, nil for no limit.
  public var rateLimit: ByteRate?
  /// Whether secrets go along a redirect to another origin (curl's `--location-trusted`).
  public var sendsSecretsAcrossRedirects: Bool
  /// Origins (scheme, host and port; any path is ignored) that receive the secrets besides
  /// the one of ``secretsOrigin``: a CDN that the user's playlist names for its segments
  /// and keys (`--trust-origin`).
  public var trustedOrigins: [URL]
  /// The URL the user gave, whose origin the secrets belong to; nil lets each request's
  /// own URL stand for it. A download sets it to its URL (``scopingSecrets(to:)``), so the
  /// pieces its playlist or manifest places on another origin go there without secrets.
  public var secretsOrigin: URL?

  /// Creates options that add nothing to a request.
  public init(
    headers: HTTPHeaders = HTTPHeaders(), secretHeaderNames: Set<String> = [],
    cookieFile: String? = nil, credentials: Credentials? = nil, netrcFile: String? = nil,
    userAgent: String? = nil, referer: String? = nil, proxy: Proxy? = nil,
    noProxy: [String]? = nil, caFile: String? = nil, rateLimit: ByteRate? = nil,
    sendsSecretsAcrossRedirects: Bool = false, trustedOrigins: [URL] = [],
    secretsOrigin: URL? = nil
  ) {
    self.caFile = caFile
    self.headers = headers
    self.secretHeaderNames = secretHeaderNames
    self.cookieFile = cookieFile
    self.credentials = credentials
    self.netrcFile = netrcFile
    self.userAgent = userAgent
    self.referer = referer
    self.proxy = proxy
    self.noProxy = noProxy
    self.rateLimit = rateLimit
    self.sendsSecretsAcrossRedirects = sendsSecretsAcrossRedirects
    self.trustedOrigins = trustedOrigins
    self.secretsOrigin = secretsOrigin
  }

  /// Header names that always carry secrets.
  public static let alwaysSecret: Set<String> = ["authorization", "cookie", "proxy-authorization"]

  /// Whether the header field `name` carries a secret.
  public func isSecret(headerNamed name: String) -> Bool {
    let lowered = name.lowercased()
    return Self.alwaysSecret.contains(lowered)
      || secretHeaderNames.contains { $0.lowercased() == lowered }
  }

  /// The header fields as `Name: value` lines, secrets shown as `Name: <redacted>`.
  public var redactedHeaderLines: [String] {
    headers.map { "\($0.name): \(isSecret(headerNamed: $0.name) ? "<redacted>" : $0.value)" }
  }

  /// A one-line summary for logs and listings, with every secret redacted.
  public var redactedDescription: String {
    var parts = redactedHeaderLines
    if let credentials { parts.append("user \(credentials.user) (password <redacted>)") }
    if let cookieFile { parts.append("cookies from \(cookieFile)") }
    if let userAgent { parts.append("User-Agent: \(userAgent)") }
    if let referer { parts.append("Referer: \(referer)") }
    if let proxy { parts.append("proxy \(proxy.redactedDescription)") }
    if let rateLimit { parts.append("at most \(rateLimit)") }
    for origin in trustedOrigins { parts.append("secrets also to \(Self.originText(origin))") }
    return parts.joined(separator: "; ")
  }
}
