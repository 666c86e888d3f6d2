import Dispatch
import Foundation
import OfflineLocks

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request in flight on a ``URLSessionTransport``: its data task, the redirects taken,
/// the bytes waiting for its delegate, and the continuation to resume when it ends.
///
/// Each hop sends the request's ``RequestOptions`` as ``CurlTransport`` does: the options'
/// header fields, user agent and referer, Basic credentials (given, or from the netrc file
/// for the hop's host) and the jar's cookies; the secrets only until a redirect leaves the
/// origin the request started at, unless the options trust every location. Cookies the
/// responses set go into the request's ``CookieJar`` (see ``URLSessionCookies``).
///
/// Rate limiters pace the delivery to the delegate: before each part `queue` waits until
/// every limiter has budget (sleeping at most 50 ms at a time, so a cancel or a new rate
/// takes effect quickly). Bytes that arrive meanwhile wait and count against
/// ``URLSessionTransport/Configuration/highWater``, so the flow control below holds the
/// server back (Apple platforms) or ends the response for a resume (Linux).
///
/// The session's delegate queue calls ``redirect(_:proposed:)``, ``didReceive(_:answer:)``,
/// ``didReceive(_:)`` and ``didComplete(_:)``; every callback into the
/// ``HTTPResponseDelegate`` runs on `queue`, one at a time and in order, and the result is
/// handed back behind the last of them, so none runs after `perform` returned.
///
/// `@unchecked Sendable` is sound because everything that changes after `init` is inside
/// `state` (a lock, never held while calling the delegate or URLSession), and the rest is
/// immutable.
final class URLSessionCall: @unchecked Sendable {
  /// The largest part handed to the delegate in one callback.
  static let partSize = 64 << 10

  private struct State {
    var task: URLSessionDataTask?
    var continuation: CheckedContinuation<Result<HTTPResponseHead, HTTPError>, Never>?
    /// What the hops so far allow the current one to carry.
    var secretHops: SecretHops
    var currentURL: URL
    var hops = 0
    var head: HTTPResponseHead?
    var disposition: HTTPBodyDisposition?
    /// Body bytes handed to `queue` and not yet delivered.
    var waitingBytes = 0
    /// Body bytes received for the final response.
    var receivedBytes: Int64 = 0
    var suspended = false
    /// Why the call ended the task itself (a refused redirect, the bound passed).
    var failure: HTTPError?
    var delegateError: (any Error & Sendable)?
    var cancelled = false
    /// Whether the response was an authentication challenge we refused: the task ends
    /// cancelled, and its head is the answer.
    var challenged = false
  }

  let request: HTTPRequest
  let delegate: any HTTPResponseDelegate
  let configuration: URLSessionTransport.Configuration
  /// Where this request's cookies come from and go to: the request's jar, or one of its own
  /// holding the options' cookies file; nil when it sends none.
  private let cookieJar: CookieJar?
  private let queue = DispatchQueue(label: "OfflineKit.URLSessionCall")
  private let state: Locked<State>

  init(
    request: HTTPRequest, delegate: any HTTPResponseDelegate,
    configuration: URLSessionTransport.Configuration
  ) {
    self.request = request
    self.delegate = delegate
    self.configuration = configuration
    cookieJar = request.cookieJar ?? request.options.cookieFile.map { CookieJar(file: $0) }
    state = Locked(State(secretHops: SecretHops(request), currentURL: request.url))
    priority = RatePriorityHold(request)
    rateTurn = RateTurn(request)
  }

  /// The budgets this request goes first in while it lives, if it has priority.
  private let priority: RatePriorityHold?
  /// Its place among the requests waiting for its budgets, if it carries any.
  private let rateTurn: RateTurn?

  /// Whether the current hop may carry the request's secrets (see ``SecretHops``).
  private var sendsSecrets: Bool { state.withLock { $0.secretHops.sendsSecrets } }

  /// Whether the current hop carries the cookies (see ``SecretHops``).
  private var sendsCookies: Bool { state.withLock { $0.secretHops.sendsCookies } }

  /// The URLRequest for hop `url`: the request's and its options' header fields, the
  /// user agent, referer, credentials and cookies, and `Accept-Encoding: identity` unless
  /// the request sets its own.
  func urlRequest(for url: URL) -> URLRequest {
    var urlRequest = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: configuration.stallSeconds)
    urlRequest.httpMethod = request.method.rawValue
    urlRequest.httpShouldHandleCookies = false
    let options = request.options
    let secrets = sendsSecrets
    var headers = options.outgoingHeaders(adding: request.headers, sendsSecrets: secrets)
    if headers["Accept-Encoding"] == nil { headers.add(name: "Accept-Encoding", value: "identity") }
    if headers["User-Agent"] == nil {
      headers.add(name: "User-Agent", value: options.userAgent ?? configuration.userAgent)
    }
    if headers["Referer"] == nil, let referer = options.referer {
      headers.add(name: "Referer", value: referer)
    }
    if secrets, headers["Authorization"] == nil, let basic = basicAuthorization(for: url) {
      headers.add(name: "Authorization", value: basic)
    }
    if sendsCookies, let cookieJar,
      let cookies = URLSessionCookies.header(for: url, in: cookieJar)
    {
      let given = headers["Cookie"]
      headers.replaceOrAdd(name: "Cookie", value: given.map { "\($0); \(cookies)" } ?? cookies)
    }
    for field in headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    return urlRequest
  }

  /// `Basic` credentials (RFC 7617) for hop `url`: the options' own, else the netrc file's
  /// for the hop's host (as curl's `CURL_NETRC_OPTIONAL`).
  private func basicAuthorization(for url: URL) -> String? {
    let options = request.options
    var pair = options.credentials.map { ($0.user, $0.password) }
    if pair == nil, let netrc = options.netrcFile, let host = url.host() {
      pair = NetrcFile.credentials(forHost: host, file: netrc)
    }
    guard let (user, password) = pair else { return nil }
    return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
  }

  /// Keeps the cookies `response` sets, when this hop carries the request's cookies.
  private func keepCookies(of response: HTTPURLResponse) {
    guard let cookieJar, sendsCookies else { return }
    URLSessionCookies.keep(
      response, for: state.withLock { $0.currentURL }, in: cookieJar)
  }

  /// Starts `task`, unless the awaiting task was cancelled first.
  func start(
    _ task: URLSessionDataTask,
    continuation: CheckedContinuation<Result<HTTPResponseHead, HTTPError>, Never>
  ) {
    let cancelled = state.withLock { state -> Bool in
      state.task = task
      state.continuation = continuation
      return state.cancelled
    }
    if cancelled {
      task.cancel()  // never started: no request goes out
      finish(with: .failure(HTTPError(.canceled, url: request.url)))
    } else {
      task.resume()
    }
  }

  /// Cancels the request from any thread: no callback follows.
  func cancel() {
    let task = state.withLock { state -> URLSessionDataTask? in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }

  // MARK: - On the session's delegate queue

  /// Answers a redirect with the request to send, or with nil and then cancels the task
  /// when the policy refuses it (the answer must come first: FoundationNetworking traps on
  /// an answer to a task cancelled meanwhile). Secrets are dropped once the target is
  /// another origin than the first request's.
  func redirect(
    _ response: HTTPURLResponse, proposed: URLRequest,
    answer: @escaping @Sendable (URLRequest?) -> Void
  ) {
    keepCookies(of: response)
    let location =
      response.value(forHTTPHeaderField: "Location") ?? proposed.url?.absoluteString ?? ""
    let refused = state.withLock { state -> URLSessionDataTask? in
      do throws(HTTPError) {
        let next = try configuration.redirects.nextURL(
          from: state.currentURL, location: location, hops: state.hops)
        state.secretHops.redirected(to: next)
        state.currentURL = next
        state.hops += 1
        return nil
      } catch {
        state.failure = error
        return state.task
      }
    }
    if let refused {
      answer(nil)
      refused.cancel()
    } else {
      answer(urlRequest(for: state.withLock { $0.currentURL }))
    }
  }

  /// Hands the final head to the delegate on `queue`; the body waits for its answer.
  func didReceive(
    _ response: URLResponse,
    answer: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let http = response as? HTTPURLResponse else {
      endTask(HTTPError(.protocolViolation, url: request.url, detail: "not an HTTP response"))
      return answer(.cancel)
    }
    keepCookies(of: http)
    let head = state.withLock { state -> HTTPResponseHead in
      let head = HTTPResponseHead(
        status: http.statusCode, headers: Self.headers(of: http),
        url: http.url ?? state.currentURL, version: "HTTP")
      state.head = head
      return head
    }
    queue.async { [self] in
      ThreadHandOff.acquire(self)
      let skip = state.withLock { $0.cancelled || $0.failure != nil }
      let disposition = skip ? .stop : delegate.didReceiveHead(head)
      state.withLock { $0.disposition = disposition }
      ThreadHandOff.release(self)
      answer(disposition == .stop ? .cancel : .allow)
    }
  }

  /// Queues a piece of the body for the delegate and holds the response back when too much
  /// waits.
  func didReceive(_ data: Data) {
    enum Step { case none, suspend, overflow }
    let bound = configuration.highWater
    let (queued, step) = state.withLock { state -> (Bool, Step) in
      // FoundationNetworking delivers body bytes before the head's answer: they wait on
      // `queue` behind the head's callback, and are dropped there unless it said `.receive`.
      guard !state.cancelled, state.failure == nil, state.delegateError == nil,
        state.disposition == nil || state.disposition == .receive
      else { return (false, .none) }
      state.waitingBytes += data.count
      state.receivedBytes += Int64(data.count)
      // Bytes that wait for the head's answer are not held back: ending the response then
      // would waste it whole (the head would be refused), and the answer comes quickly.
      guard state.waitingBytes > bound, !state.suspended, state.disposition == .receive else {
        return (true, .none)
      }
      if URLSessionFlowControl.canSuspend {
        state.suspended = true
        return (true, .suspend)
      }
      state.failure = HTTPError(
        .connectionLost, url: state.currentURL,
        detail: "the reader fell \(bound) bytes behind and URLSession cannot pause here")
      return (true, .overflow)
    }
    if queued {
      ThreadHandOff.release(self)
      queue.async { [self] in
        ThreadHandOff.acquire(self)
        deliver(data)
      }
    }
    let task = state.withLock { $0.task }
    switch step {
    case .none: break
    case .suspend: task?.suspend()
    case .overflow: task?.cancel()
    }
  }

  /// The response was a 401 or 407 that URLSession raised as a challenge (refused: the
  /// task ends cancelled); its head goes to the delegate as any other, without its body.
  func didRefuseChallenge(_ response: HTTPURLResponse?) {
    guard let response else {
      return endTask(
        HTTPError(.protocolViolation, url: request.url, detail: "a challenge without a response"))
    }
    state.withLock { $0.challenged = true }
    didReceive(response) { _ in }
  }

  /// The task ended; the result goes to `perform` behind every queued delivery.
  func didComplete(_ error: NSError?) {
    ThreadHandOff.release(self)
    queue.async { [self] in
      ThreadHandOff.acquire(self)
      finish(with: result(error))
    }
  }

  // MARK: - On `queue`

  private func deliver(_ data: Data) {
    let skip = state.withLock {
      $0.cancelled || $0.delegateError != nil || $0.disposition != .receive
    }
    var thrown: (any Error & Sendable)?
    if !skip {
      do {
        try data.withUnsafeBytes { raw in
          var start = 0
          while start < raw.count {
            guard waitForBudget() else { break }
            let end = min(raw.count, start + Self.partSize)
            try delegate.didReceiveBodyPart(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
            for limiter in request.rateLimiters { limiter.charge(end - start) }
            start = end
          }
        }
      } catch {
        thrown = error
      }
    }
    let (resume, cancel) = state.withLock { state -> (URLSessionDataTask?, URLSessionDataTask?) in
      state.waitingBytes -= data.count
      if let thrown, state.delegateError == nil {
        state.delegateError = thrown
        return (nil, state.task)
      }
      guard state.suspended, state.waitingBytes <= configuration.highWater / 4 else {
        return (nil, nil)
      }
      state.suspended = false
      return (state.task, nil)
    }
    resume?.resume()
    cancel?.cancel()
  }

  /// Waits until every rate limiter of the request has budget; false when the request was
  /// cancelled meanwhile.
  private func waitForBudget() -> Bool {
    guard let rateTurn else { return true }
    while true {
      if state.withLock({ $0.cancelled }) { return false }
      let wait = rateTurn.pause()
      guard wait > .zero else { return true }
      Thread.sleep(forTimeInterval: min(wait, .milliseconds(50)).inSeconds)
    }
  }

  private func result(_ error: NSError?) -> Result<HTTPResponseHead, HTTPError> {
    state.withLock { state in
      let url = state.currentURL
      if state.cancelled { return .failure(HTTPError(.canceled, url: url)) }
      if let thrown = state.delegateError {
        return .failure(HTTPError(.delegateFailed, url: url, underlying: thrown))
      }
      if let failure = state.failure { return .failure(failure) }
      if let head = state.head, state.disposition == .stop || state.challenged {
        return .success(head)
      }
      if let error { return .failure(HTTPError(urlError: error, url: url, head: state.head)) }
      guard let head = state.head else {
        return .failure(HTTPError(.protocolViolation, url: url, detail: "no response"))
      }
      if state.disposition == .receive, request.method == .get,
        head.headers["Content-Encoding"] == nil, let length = head.contentLength,
        state.receivedBytes < length
      {
        return .failure(
          HTTPError(
            .connectionLost, url: url,
            detail: "\(state.receivedBytes) of \(length) bytes"))
      }
      return .success(head)
    }
  }

  private func finish(with result: Result<HTTPResponseHead, HTTPError>) {
    let continuation = state.withLock { state in
      defer { state.continuation = nil }
      return state.continuation
    }
    ThreadHandOff.release(self)
    continuation?.resume(returning: result)
  }

  private func endTask(_ failure: HTTPError) {
    let task = state.withLock { state -> URLSessionDataTask? in
      if state.failure == nil { state.failure = failure }
      return state.task
    }
    task?.cancel()
  }

  /// The response's header fields, sorted by name (URLSession keeps no order).
  private static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
    var fields: [HTTPHeaders.Field] = []
    for (name, value) in response.allHeaderFields {
      guard let name = name as? String else { continue }
      let text = Substring("\(value)").trimmingHTTPWhitespace()
      fields.append(HTTPHeaders.Field(name: name, value: text))
    }
    return HTTPHeaders(fields.sorted { $0.name.lowercased() < $1.name.lowercased() })
  }
}
