import Foundation

/// What the hops of one request may carry, as its redirects go: a value each transport
/// keeps per request and asks before each hop, so both decide the same way.
///
/// Secrets (header fields that carry one, credentials, netrc's) go only to the origin of
/// ``RequestOptions/secretsOrigin`` (the request's own URL when nil) and the
/// ``RequestOptions/trustedOrigins``, whatever a playlist names, and after a redirect only
/// while every hop stayed there (RFC 9110, section 15.4; curl since 7.58), unless the
/// options trust every location (curl's `--location-trusted`) and the request started
/// there. Cookies follow their own domain rules, and stay behind once a redirect left the
/// origin the request started at, unless every location is trusted.
struct SecretHops: Sendable {
  private let options: RequestOptions
  private let firstURL: URL
  private let startedWhereSecretsGo: Bool
  /// Set once a redirect took the request to another origin than the one it started at.
  private(set) var leftOrigin = false
  /// Set once the request was at an origin that may not receive its secrets.
  private(set) var leftSecretOrigins: Bool

  /// The hops of `request`, before its first.
  init(_ request: HTTPRequest) {
    options = request.options
    firstURL = request.url
    startedWhereSecretsGo = options.allowsSecrets(to: firstURL, requestURL: firstURL)
    leftSecretOrigins = !startedWhereSecretsGo
  }

  /// Notes a redirect to `next`.
  mutating func redirected(to next: URL) {
    if !RedirectPolicy.isSameOrigin(firstURL, next) { leftOrigin = true }
    if !options.allowsSecrets(to: next, requestURL: firstURL) { leftSecretOrigins = true }
  }

  /// Whether the current hop carries the secrets.
  var sendsSecrets: Bool {
    !leftSecretOrigins || (options.sendsSecretsAcrossRedirects && startedWhereSecretsGo)
  }

  /// Whether the current hop carries the cookies.
  var sendsCookies: Bool { !leftOrigin || options.sendsSecretsAcrossRedirects }
}
