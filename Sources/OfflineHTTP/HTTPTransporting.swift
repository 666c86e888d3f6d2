/// The capability to carry out HTTP requests, streaming each body into a delegate.
///
/// ``CurlTransport`` is the implementation on Linux. Another transport (URLSession on Apple
/// platforms) can stand in as long as it keeps the contract of ``HTTPResponseDelegate``:
/// callbacks in order, the network waiting while a callback runs, redirects followed only
/// within ``RedirectPolicy``.
public protocol HTTPTransporting: Sendable {
  /// Carries out `request`, following redirects allowed by the transport's policy, and
  /// streams the final response's body into `delegate`.
  ///
  /// - Returns: the head of the final response, whatever its status code. A 404 is a
  ///   response, not an error: the caller decides.
  /// - Throws: ``HTTPError`` when no complete response arrived: connection refused or cut,
  ///   a body shorter than its `Content-Length`, a stall, a refused redirect, a TLS failure,
  ///   or cancellation of the calling task (``HTTPError/Code-swift.struct/canceled``), after
  ///   which no callback runs any more.
  func perform(_ request: HTTPRequest, delegate: any HTTPResponseDelegate) async throws(HTTPError)
    -> HTTPResponseHead
}
