import Foundation
import OfflineHTTP
import OfflineLocks

/// An in-memory ``HTTPTransporting`` that answers from a script: for tests of what the
/// library decides about a response (resume or restart, retry or give up, pause, cancel),
/// with no server and no throttling.
///
/// A request is answered, in this order, by the next response ``enqueue(_:_:)``d for its URL
/// (each used once), by the responder of ``route(_:_:)`` or the resource of ``serve(_:_:)``,
/// else by a 404. URLs match on scheme, host, port and path: the query (a token) is the
/// responder's to read. Every request is recorded (``requests``).
///
/// It keeps the contract of ``HTTPResponseDelegate`` as ``CurlTransport`` does: the head
/// once, then the body in parts of at most ``ScriptedResponse/partSize`` bytes, in order, one
/// callback at a time; `.discard` drops the body, `.stop` returns the head at once; a
/// delegate that throws ends the transfer with `.delegateFailed`; a cancelled calling task
/// gets `.canceled` and no callback after it. Cuts and stalls are thrown as curl reports
/// them (`.connectionLost` code 18, `.stalled` code 28), at once: nothing waits for real time.
///
/// ```swift
/// let transport = ScriptedTransport()
/// transport.serve(url, ScriptedResource(body))          // 200, 206, 416 as nginx would
/// transport.enqueue(url, .ok(body).cut(after: 1000))    // ...but the first one is cut
/// let transfer = Transfer(url: url, destination: path, journal: journal, transport: transport)
/// ```
public final class ScriptedTransport: HTTPTransporting {
  /// Makes the response to one request.
  public typealias Responder = @Sendable (ScriptedRequest) -> ScriptedResponse

  private struct State {
    var routes: [String: Responder] = [:]
    var queued: [String: [ScriptedResponse]] = [:]
    var requests: [ScriptedRequest] = []
    var inFlight = 0
    var mostInFlight = 0
    var delivered = 0
  }

  private let state = Locked(State())
  private let holdLimit: Duration

  /// A transport with no routes. A request held at a gate for longer than `holdLimit` fails
  /// as stalled, so a test that never opens its gate ends.
  public init(holdLimit: Duration = .seconds(30)) {
    self.holdLimit = holdLimit
  }

  /// Answers every request for `url` with `responder`.
  public func route(_ url: URL, _ responder: @escaping Responder) {
    state.withLock { $0.routes[Self.key(url)] = responder }
  }

  /// Serves `resource` at `url` as a range-aware server would.
  public func serve(_ url: URL, _ resource: ScriptedResource) {
    route(url) { resource.response(to: $0) }
  }

  /// Answers the next requests for `url` with `responses`, one each, in order, before the
  /// route of `url` answers again.
  public func enqueue(_ url: URL, _ responses: ScriptedResponse...) {
    state.withLock { $0.queued[Self.key(url), default: []].append(contentsOf: responses) }
  }

  /// Every request received so far, in the order they arrived.
  public var requests: [ScriptedRequest] { state.withLock { $0.requests } }

  /// The requests received for `url` (query ignored), in order.
  public func requests(to url: URL) -> [ScriptedRequest] {
    let key = Self.key(url)
    return requests.filter { Self.key($0.url) == key }
  }

  /// The body bytes handed to delegates so far, over every response.
  public var bytesDelivered: Int { state.withLock { $0.delivered } }

  /// How many requests are being answered now.
  public var inFlight: Int { state.withLock { $0.inFlight } }

  /// The most requests that were being answered at once.
  public var mostInFlight: Int { state.withLock { $0.mostInFlight } }

  /// Answers `request` from the script.
  public func perform(_ request: HTTPRequest, delegate: any HTTPResponseDelegate)
    async throws(HTTPError) -> HTTPResponseHead
  {
    let recorded = ScriptedRequest(request)
    let response: ScriptedResponse = state.withLock { state in
      state.requests.append(recorded)
      state.inFlight += 1
      state.mostInFlight = max(state.mostInFlight, state.inFlight)
      return Self.response(to: recorded, in: &state)
    }
    defer { state.withLock { $0.inFlight -= 1 } }
    let url = request.url
    if let kind = response.failure { throw HTTPError(kind, url: url) }
    if let gate = response.headGate { try await hold(at: gate, url: url) }
    try Self.checkCancellation(url)
    let head = HTTPResponseHead(
      status: response.status, headers: response.headers, url: url, version: "HTTP/1.1")
    let disposition = delegate.didReceiveHead(head)
    if disposition == .stop || request.method == .head { return head }
    let body = response.deliveredBody
    if disposition == .receive {
      try await deliver(body, of: response, to: delegate, url: url)
    }
    switch response.ending {
    case .complete:
      return head
    case .cut:
      let missing = response.body.count - body.count
      throw HTTPError(
        .connectionLost, url: url, curlCode: 18,
        detail: "transfer closed with \(missing) bytes remaining to read")
    case .stall:
      throw HTTPError(
        .stalled, url: url, curlCode: 28, detail: "no byte arrived within the stall timeout")
    }
  }

  /// Hands `body` to `delegate` in parts, stopping at the body's gates, and yielding between
  /// parts so other tasks (and a cancellation) get their turn.
  private func deliver(
    _ body: Data, of response: ScriptedResponse, to delegate: any HTTPResponseDelegate, url: URL
  ) async throws(HTTPError) {
    var offset = 0
    var gates = response.bodyGates[...]
    while true {
      while let next = gates.first, next.offset <= offset {
        gates = gates.dropFirst()
        try await hold(at: next.gate, url: url)
      }
      guard offset < body.count else { return }
      var end = min(offset + response.partSize, body.count)
      if let next = gates.first, next.offset < end { end = next.offset }
      try Self.checkCancellation(url)
      do {
        try body[body.startIndex + offset..<body.startIndex + end].withUnsafeBytes {
          try delegate.didReceiveBodyPart($0)
        }
      } catch {
        throw HTTPError(.delegateFailed, url: url, underlying: error)
      }
      state.withLock { $0.delivered += end - offset }
      offset = end
      await Task.yield()
    }
  }

  private func hold(at gate: ScriptedGate, url: URL) async throws(HTTPError) {
    switch await gate.pass(limit: holdLimit) {
    case .opened:
      return
    case .canceled:
      throw HTTPError(.canceled, url: url)
    case .timedOut:
      throw HTTPError(
        .stalled, url: url, detail: "held at a scripted gate the test never opened")
    }
  }

  private static func checkCancellation(_ url: URL) throws(HTTPError) {
    if Task.isCancelled { throw HTTPError(.canceled, url: url) }
  }

  private static func response(to request: ScriptedRequest, in state: inout State)
    -> ScriptedResponse
  {
    let key = key(request.url)
    if var queue = state.queued[key], !queue.isEmpty {
      let next = queue.removeFirst()
      state.queued[key] = queue
      return next
    }
    if let route = state.routes[key] { return route(request) }
    return .status(404)
  }

  /// Scheme, host, port and path of `url`.
  static func key(_ url: URL) -> String {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.query = nil
    components?.fragment = nil
    return components?.string ?? url.absoluteString
  }
}
