import Foundation

/// The status line and header fields of a final (non-1xx, non-followed-redirect) response.
public struct HTTPResponseHead: Sendable, Equatable {
  /// The status code, for example 200 or 206.
  public var status: Int
  /// The header fields in the order received.
  public var headers: HTTPHeaders
  /// The URL that answered, after any redirects.
  public var url: URL
  /// The protocol version, for example "HTTP/1.1" or "HTTP/2".
  public var version: String

  /// Creates a response head.
  public init(status: Int, headers: HTTPHeaders, url: URL, version: String) {
    self.status = status
    self.headers = headers
    self.url = url
    self.version = version
  }

  /// The declared length of this response's body (`Content-Length`), when present and valid.
  public var contentLength: Int64? {
    guard let text = headers["Content-Length"], let value = Int64(text), value >= 0 else {
      return nil
    }
    return value
  }
}
