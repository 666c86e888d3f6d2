import Foundation

extension RequestOptions {
  /// These options with ``secretsOrigin`` set to `url`, unless it is set already.
  ///
  /// A download calls it with the URL it was given before its first request, so that the
  /// segments, keys, init sections, renditions and playlists that a playlist or manifest
  /// places on another origin are asked for without the secrets: a hostile or compromised
  /// playlist needs no redirect to name its own server. Name such an origin in
  /// ``trustedOrigins`` to send them there too.
  public func scopingSecrets(to url: URL) -> RequestOptions {
    guard secretsOrigin == nil else { return self }
    var scoped = self
    scoped.secretsOrigin = url
    return scoped
  }

  /// Whether a request to `url` may carry the secrets: its origin is the one of
  /// ``secretsOrigin`` (of `requestURL`, the request's first URL, when that is nil) or one
  /// of ``trustedOrigins``.
  func allowsSecrets(to url: URL, requestURL: URL) -> Bool {
    RedirectPolicy.isSameOrigin(secretsOrigin ?? requestURL, url)
      || trustedOrigins.contains { RedirectPolicy.isSameOrigin($0, url) }
  }

  /// Checks ``trustedOrigins``: each an http or https URL with a host.
  func validateTrustedOrigins() throws(RequestOptionError) {
    for origin in trustedOrigins {
      guard let scheme = origin.scheme?.lowercased(), URL.isHTTPScheme(scheme),
        let host = origin.host(), !host.isEmpty
      else {
        throw RequestOptionError(
          option: "--trust-origin",
          message: "'\(origin.redactedForDisplay)' is not an http or https URL with a host")
      }
    }
  }

  /// `scheme://host:port` of `url`, for listings (nothing of its path, user or query).
  static func originText(_ url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? "http"
    let host = url.host(percentEncoded: false) ?? ""
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return "\(scheme)://\(shownHost)" + (url.port.map { ":\($0)" } ?? "")
  }
}
