import Foundation
import OfflineLocks

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The delegate of a ``URLSessionTransport``'s session: passes each task's events to the
/// ``URLSessionCall`` registered for it.
///
/// URLSession calls it on the session's delegate queue (serial), one event at a time. It does
/// no work of its own: a call never runs a ``HTTPResponseDelegate`` on this queue.
final class URLSessionRouter: NSObject, URLSessionDataDelegate, Sendable {
  let configuration: URLSessionTransport.Configuration
  private let calls = Locked<[Int: URLSessionCall]>([:])

  init(configuration: URLSessionTransport.Configuration) {
    self.configuration = configuration
  }

  /// Routes `task`'s events to `call` until ``unregister(_:)``.
  func register(_ call: URLSessionCall, for task: URLSessionTask) {
    calls.withLock { $0[task.taskIdentifier] = call }
  }

  /// Stops routing `task`'s events.
  func unregister(_ task: URLSessionTask) {
    _ = calls.withLock { $0.removeValue(forKey: task.taskIdentifier) }
  }

  /// The call registered for `task`, nil once it ended.
  func call(for task: URLSessionTask) -> URLSessionCall? {
    calls.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard let call = call(for: task) else { return completionHandler(nil) }
    call.redirect(response, proposed: request, answer: completionHandler)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let call = call(for: dataTask) else { return completionHandler(.cancel) }
    call.didReceive(response, answer: completionHandler)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    call(for: dataTask)?.didReceive(data)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    call(for: task)?.didComplete(error.map { $0 as NSError })
  }

  /// A server-trust challenge is answered by ``answeredServerTrust(_:task:completionHandler:)``
  /// (Apple platforms). Any other (a 401 or 407 with `WWW-Authenticate`) is refused:
  /// OfflineKit sends credentials itself, up front, and the response's head goes to the
  /// request's delegate as it came. (FoundationNetworking never hands such a response on: without this method its
  /// task waits forever, and every answer but a credential cancels it.)
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler:
      @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?)
      -> Void
  ) {
    if answeredServerTrust(challenge, task: task, completionHandler: completionHandler) { return }
    call(for: task)?.didRefuseChallenge(challenge.failureResponse as? HTTPURLResponse)
    completionHandler(.cancelAuthenticationChallenge, nil)
  }
}

#if !canImport(Security)
  extension URLSessionRouter {
    /// FoundationNetworking never raises a server-trust challenge: never answered here.
    func answeredServerTrust(
      _ challenge: URLAuthenticationChallenge, task: URLSessionTask,
      completionHandler:
        @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?)
        -> Void
    ) -> Bool {
      false
    }
  }
#endif
