import Foundation
import OfflineHTTP

/// One request a ``ScriptedTransport`` received, kept for assertions.
public struct ScriptedRequest: Sendable {
  /// The request as the library made it (options, rate limiters and buffer hint included).
  public var request: HTTPRequest

  /// Wraps `request`.
  public init(_ request: HTTPRequest) {
    self.request = request
  }

  /// The URL requested, query included.
  public var url: URL { request.url }

  /// The method.
  public var method: HTTPRequest.Method { request.method }

  /// The header fields the library set on the request.
  public var headers: HTTPHeaders { request.headers }

  /// The `Range` header, when sent.
  public var range: String? { headers["Range"] }

  /// The `If-Range` header, when sent.
  public var ifRange: String? { headers["If-Range"] }

  /// The first byte asked for by a `Range: bytes=N-` or `bytes=N-M` header; nil without one.
  public var rangeStart: Int? {
    switch range.flatMap(ByteRangeRequest.init) {
    case .from(let first)?, .closed(let first, _)?: first
    default: nil
    }
  }

  /// The value of the query item `name` of the URL (a token, for example).
  public func query(_ name: String) -> String? {
    URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name == name }?.value
  }
}
