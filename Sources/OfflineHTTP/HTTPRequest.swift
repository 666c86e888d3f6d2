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
  /// The budgets this request's body is paced against (see ``RateLimiter``); empty for
  /// none. Each one may be shared with other requests, to cap them together.
  public var rateLimiters: [RateLimiter]

  /// Creates a request.
  public init(
    url: URL, method: Method = .get, headers: HTTPHeaders = HTTPHeaders(),
    rateLimiters: [RateLimiter] = []
  ) {
    self.url = url
    self.method = method
    self.headers = headers
    self.rateLimiters = rateLimiters
  }
}
