import Foundation
import OfflineHTTP

/// Which transport `offline get` uses: ``CurlTransport`` unless the hidden variable
/// `OFFLINEKIT_TRANSPORT` says `urlsession` (for testing ``URLSessionTransport`` end to end,
/// crashes included). The URLSession transport takes the stall timeout and the CA file; it
/// has no proxy settings, so `--proxy` and the proxy variables are not used with it.
enum TransportChoice {
  /// The variable that chooses.
  static let variable = "OFFLINEKIT_TRANSPORT"

  /// The transport the environment asks for, built from the curl configuration's settings.
  ///
  /// - Throws: ``RequestOptionError`` naming the variable when its value is not `curl` or
  ///   `urlsession`.
  static func make(
    _ configuration: CurlTransport.Configuration,
    environment: [String: String]
  ) throws(RequestOptionError) -> any HTTPTransporting {
    switch environment[variable]?.lowercased() {
    case nil, "", "curl":
      return CurlTransport(configuration: configuration)
    case "urlsession":
      return URLSessionTransport(
        configuration: .init(
          stallTimeout: configuration.stallTimeout, redirects: configuration.redirects,
          trustedCAFile: configuration.trustedCAFile, userAgent: configuration.userAgent))
    case let other?:
      throw RequestOptionError(
        option: variable, message: "\(other) is not a transport (curl or urlsession)")
    }
  }
}
