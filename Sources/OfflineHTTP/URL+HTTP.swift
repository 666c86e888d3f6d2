import Foundation

extension URL {
  /// The URL without user information or query, safe to show in messages and logs.
  public var redactedForDisplay: String {
    guard var parts = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
      return "(unprintable URL)"
    }
    parts.user = nil
    parts.password = nil
    let hadQuery = parts.query != nil
    parts.query = nil
    parts.fragment = nil
    return (parts.string ?? "(unprintable URL)") + (hadQuery ? "?…" : "")
  }
}

extension URL {
  /// Whether `scheme` (any case) is one this package follows: http or https.
  public static func isHTTPScheme(_ scheme: String) -> Bool {
    let lowered = scheme.lowercased()
    return lowered == "http" || lowered == "https"
  }

  /// Whether the URL is an http or https URL with a host: the only kind a download starts
  /// from.
  public var isHTTPWithHost: Bool {
    Self.isHTTPScheme(scheme ?? "") && host() != nil
  }
}
