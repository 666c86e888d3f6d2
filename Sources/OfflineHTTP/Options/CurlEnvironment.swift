import Foundation

/// The environment variables curl reads for proxies and TLS trust, and only those, so a
/// configuration holding them never carries the rest of the environment.
///
/// ``ProxyChoice`` reads the proxy variables, ``TrustedCAs`` the CA ones. Uppercase
/// `HTTP_PROXY` is deliberately not among them: curl ignores it because a CGI program finds
/// it set from a request's `Proxy:` header.
///
/// ```swift
/// let environment = CurlEnvironment(["https_proxy": "http://proxy.example:3128"])
/// let transport = CurlTransport(configuration: .init(environment: environment))
/// ```
public struct CurlEnvironment: Sendable, Equatable, CustomStringConvertible {
  /// Every name read, lowercase before uppercase where curl takes both.
  public static let names = [
    "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
    "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR",
  ]

  /// The values of the variables of ``names`` that are set (possibly to an empty string).
  public private(set) var values: [String: String]

  /// Keeps the variables of ``names`` from `environment` and drops every other.
  public init(_ environment: [String: String]) {
    values = environment.filter { Self.names.contains($0.key) }
  }

  /// The variables of this process, read now.
  public static var process: CurlEnvironment {
    CurlEnvironment(ProcessInfo.processInfo.environment)
  }

  /// No variable set: no proxy, the system's CAs.
  public static let empty = CurlEnvironment([:])

  /// The value of `name`, nil when it is not set.
  public subscript(name: String) -> String? { values[name] }

  /// The first of `names` that is set, with its value, as curl looks them up (a variable set
  /// to an empty string counts as set).
  func first(of names: [String]) -> (name: String, value: String)? {
    for name in names {
      if let value = values[name] { return (name, value) }
    }
    return nil
  }

  /// The names that are set, never their values (a proxy URL may hold a password).
  public var description: String {
    "CurlEnvironment(\(values.keys.sorted().joined(separator: ", ")))"
  }
}
