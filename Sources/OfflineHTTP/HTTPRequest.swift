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
  /// How the request is made for its source: its header fields (sent before ``headers``,
  /// which win on a name both set), user agent, referer, credentials, netrc, cookies file,
  /// proxy and CAs. Secrets among them are not sent after a redirect to another origin
  /// unless ``RequestOptions/sendsSecretsAcrossRedirects`` is set.
  public var options: RequestOptions
  /// The cookies of the request's content, shared with its other requests; nil reads
  /// ``RequestOptions/cookieFile`` afresh for this request alone and keeps nothing.
  public var cookieJar: CookieJar?
  /// The budgets this request's body is paced against (see ``RateLimiter``); empty for
  /// none. Each one may be shared with other requests, to cap them together.
  public var rateLimiters: [RateLimiter]
  /// Whether this request's body goes first in its ``rateLimiters``: while it is under way,
  /// the other requests sharing a budget wait, so it gets the whole cap (a player's range of
  /// a file that goes on downloading around it). False by default.
  public var hasRatePriority = false
  /// At most how many bytes the transport reads from the connection at once for this
  /// request (libcurl's receive buffer, `CURLOPT_BUFFERSIZE`); nil keeps the transport's
  /// configured size. Many small responses in flight at once (a stream's pieces) ask for
  /// less, so their buffers do not add up; a hint larger than the configured size changes
  /// nothing. A transport without such a buffer ignores it.
  public var receiveBufferSize: Int?

  /// Creates a request.
  public init(
    url: URL, method: Method = .get, headers: HTTPHeaders = HTTPHeaders(),
    options: RequestOptions = RequestOptions(), cookieJar: CookieJar? = nil,
    rateLimiters: [RateLimiter] = []
  ) {
    self.url = url
    self.method = method
    self.headers = headers
    self.options = options
    self.cookieJar = cookieJar
    self.rateLimiters = rateLimiters
  }
}
