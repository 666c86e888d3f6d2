import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension HTTPError {
  /// The error for a data task that URLSession ended with `error`.
  ///
  /// - Parameter head: The final head, when one arrived: a timeout after it is a stall.
  init(urlError error: NSError, url: URL, head: HTTPResponseHead?) {
    let detail = error.localizedDescription
    guard error.domain == NSURLErrorDomain else {
      self.init(.other, url: url, detail: detail)
      return
    }
    let kind: Kind
    switch URLError.Code(rawValue: error.code) {
    case .cancelled: kind = .canceled
    case .timedOut: kind = .stalled
    case .cannotFindHost, .dnsLookupFailed: kind = .cannotResolveHost
    case .cannotConnectToHost, .notConnectedToInternet: kind = .cannotConnect
    case .networkConnectionLost: kind = .connectionLost
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
      .clientCertificateRejected, .clientCertificateRequired:
      kind = .tlsFailure
    case .httpTooManyRedirects: kind = .tooManyRedirects(0)
    case .badServerResponse: kind = head == nil ? .notHTTP : .connectionLost
    case .unsupportedURL: kind = .unsupportedScheme(url.scheme ?? "none")
    case .unknown: kind = Self.kind(ofUnknown: detail, afterHead: head != nil)
    default: kind = .other
    }
    self.init(kind, url: url, detail: detail)
  }

  /// FoundationNetworking reports most libcurl failures as `URLError.unknown` carrying only
  /// libcurl's message (no code): a certificate or handshake failure names SSL; anything
  /// else after the head arrived ended the body early ("transfer closed with N bytes
  /// remaining", "Recv failure"), which is a lost connection.
  private static func kind(ofUnknown message: String, afterHead: Bool) -> Kind {
    if message.contains("SSL") || message.contains("certificate") { return .tlsFailure }
    return afterHead ? .connectionLost : .other
  }
}
