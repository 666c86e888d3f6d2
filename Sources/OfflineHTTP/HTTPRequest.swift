import Foundation

/// One HTTP request: a method, a URL and header fields. Bodies are not sent: OfflineKit only reads.
public struct HTTPRequest: Sendable, Equatable {
  /// The request method.
  public enum Method: String, Sendable {
    /// Fetch the representation.
    case get = "GET"
    /// Fetch only the response head.
    case head = "HEAD"
  }

  /// The target. Only `http` and `https` are accepted by ``CurlTransport``.
  public var url: URL
  /// The method.
  public var method: Method
  /// Extra header fields. `User-Agent` and `Accept-Encoding` are set by the transport unless given.
  public var headers: HTTPHeaders

  /// Creates a request.
  public init(url: URL, method: Method = .get, headers: HTTPHeaders = HTTPHeaders()) {
    self.url = url
    self.method = method
    self.headers = headers
  }
}
