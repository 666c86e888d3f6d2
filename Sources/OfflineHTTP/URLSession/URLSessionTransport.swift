import Foundation
import OfflineLocks

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ``HTTPTransporting`` on Foundation's `URLSession`: the transport for Apple platforms,
/// and on Linux (FoundationNetworking) a second implementation held to the same conformance
/// tests as ``CurlTransport``.
///
/// One transport owns one ephemeral session (no cache, no cookie store, no credential store:
/// OfflineKit decides what is sent). Each request is a delegate-based data task; the session's
/// delegate hands each response to the request's ``HTTPResponseDelegate`` on a serial queue
/// of that request's own, so a slow delegate holds back only its own transfer. Redirects are
/// decided by ``Configuration/redirects`` in the session delegate, never by URLSession:
/// only http and https, never https to http, credentials dropped across origins.
///
/// **Memory with a slow delegate.** Bytes waiting for the delegate are counted. On Apple
/// platforms the data task is suspended once ``Configuration/highWater`` bytes wait and
/// resumed when they have drained to a quarter of that (URLSession then stops reading the
/// socket; TCP holds the server back). FoundationNetworking cannot do that: its `suspend()`
/// starts the request again from byte 0 without `Range` and it has no flow control, so on
/// Linux the response is ended as ``HTTPError/Code-swift.struct/connectionLost`` once the bound
/// is passed, after the delegate has had every byte that arrived. An OfflineKit `Transfer` then resumes
/// with `Range` and `If-Range`, so memory stays bounded and no byte is lost or doubled.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let head = try await transport.perform(HTTPRequest(url: url), delegate: sink)
/// ```
///
/// Cancelling the task that awaits ``perform(_:delegate:)`` cancels the data task; no
/// callback runs after `perform` returned.
public final class URLSessionTransport: HTTPTransporting {
  /// The settings every request of this transport uses.
  public let configuration: Configuration
  private let session: URLSession
  private let router: URLSessionRouter

  /// Creates a transport and its session.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    let router = URLSessionRouter(configuration: configuration)
    let queue = OperationQueue()
    queue.name = "OfflineKit.URLSessionTransport"
    queue.maxConcurrentOperationCount = 1
    self.router = router
    self.session = URLSession(
      configuration: configuration.sessionConfiguration, delegate: router, delegateQueue: queue)
  }

  deinit {
    session.invalidateAndCancel()
  }

  /// Carries out `request`; see ``HTTPTransporting/perform(_:delegate:)``.
  public func perform(_ request: HTTPRequest, delegate: any HTTPResponseDelegate)
    async throws(HTTPError) -> HTTPResponseHead
  {
    try request.requireHTTPScheme()
    let call = URLSessionCall(request: request, delegate: delegate, configuration: configuration)
    let task = session.dataTask(with: call.urlRequest(for: request.url))
    router.register(call, for: task)
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        call.start(task, continuation: continuation)
      }
    } onCancel: {
      call.cancel()
    }
    router.unregister(task)
    ThreadHandOff.acquire(call)  // what the delegate wrote on the call's queue
    return try result.get()
  }
}
