import OfflineHTTP
import OfflineLocks

/// A transport that records each request it carries out, then hands it to curl: for tests
/// that check what the library asked for (rate limits, receive buffers) on real requests.
final class RecordingTransport: HTTPTransporting {
  /// Every request carried out so far, in the order they started.
  let requests = Locked<[HTTPRequest]>([])
  let inner = CurlTransport()

  func perform(_ request: HTTPRequest, delegate: any HTTPResponseDelegate)
    async throws(HTTPError) -> HTTPResponseHead
  {
    requests.withLock { $0.append(request) }
    return try await inner.perform(request, delegate: delegate)
  }
}
