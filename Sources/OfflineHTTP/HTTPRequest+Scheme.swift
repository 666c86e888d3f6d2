import Foundation

extension HTTPRequest {
  /// Throws ``HTTPError/Code-swift.struct/unsupportedScheme`` unless the URL is http or https: what
  /// every transport checks before any I/O, so an `ftp:` or `file:` URL never reaches the
  /// network library.
  func requireHTTPScheme() throws(HTTPError) {
    let scheme = url.scheme?.lowercased() ?? ""
    guard URL.isHTTPScheme(scheme) else {
      throw HTTPError(.unsupportedScheme(scheme.isEmpty ? "none" : scheme), url: url)
    }
  }
}
