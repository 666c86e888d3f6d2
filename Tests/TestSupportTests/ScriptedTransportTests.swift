import Foundation
import OfflineHTTP
import OfflineLocks
import TestTiming
import Testing

@testable import TestSupport

/// What a delegate saw of one response.
private final class Received: HTTPResponseDelegate {
  struct Seen {
    var heads: [HTTPResponseHead] = []
    var parts: [Data] = []
  }

  let seen = Locked(Seen())
  let disposition: HTTPBodyDisposition
  /// Throws from the body callback once this many parts have arrived.
  let failsAfterParts: Int?

  init(_ disposition: HTTPBodyDisposition = .receive, failsAfterParts: Int? = nil) {
    self.disposition = disposition
    self.failsAfterParts = failsAfterParts
  }

  var heads: [HTTPResponseHead] { seen.withLock { $0.heads } }
  var parts: [Data] { seen.withLock { $0.parts } }
  var body: Data { parts.reduce(Data(), +) }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    seen.withLock { $0.heads.append(head) }
    return disposition
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    let count = seen.withLock { seen in
      seen.parts.append(Data(bytes))
      return seen.parts.count
    }
    if let failsAfterParts, count > failsAfterParts { throw Refusal() }
  }

  struct Refusal: Error {}
}

@Suite(.timed) struct ScriptedTransportTests {
  let url = URL(string: "https://origin.test/file.bin")!
  let body = TestData.bytes(count: 100_000, seed: 7)

  func get(_ headers: HTTPHeaders = HTTPHeaders(), query: String = "") -> HTTPRequest {
    HTTPRequest(url: URL(string: url.absoluteString + query)!, headers: headers)
  }

  @Test func aWholeBodyArrivesInOrderInPartsNoLargerThanAsked() async throws {
    let transport = ScriptedTransport()
    transport.enqueue(url, .ok(body).split(into: 4096))
    let delegate = Received()
    let head = try await transport.perform(get(), delegate: delegate)
    #expect(head.status == 200)
    #expect(head.contentLength == Int64(body.count))
    #expect(head.headers["ETag"] == "\"v1\"")
    #expect(delegate.heads.count == 1)
    #expect(delegate.parts.allSatisfy { $0.count <= 4096 })
    #expect(delegate.parts.count == (body.count + 4095) / 4096)
    #expect(delegate.body == body)
  }

  @Test func aResourceAnswersARangeWith206AndItsContentRange() async throws {
    let transport = ScriptedTransport()
    transport.serve(url, ScriptedResource(body))
    let delegate = Received()
    let head = try await transport.perform(
      get(["Range": "bytes=40000-", "If-Range": "\"v1\""]), delegate: delegate)
    #expect(head.status == 206)
    #expect(head.headers["Content-Range"] == "bytes 40000-99999/100000")
    #expect(delegate.body == body.subdata(in: 40000..<100_000))
    #expect(transport.requests.map(\.rangeStart) == [40000])
    #expect(transport.requests.first?.ifRange == "\"v1\"")
  }

  @Test func aResourceWhoseValidatorChangedAnswersTheWholeBodyWith200() async throws {
    let transport = ScriptedTransport()
    transport.serve(url, ScriptedResource(body, etag: "\"v2\""))
    let delegate = Received()
    let head = try await transport.perform(
      get(["Range": "bytes=40000-", "If-Range": "\"v1\""]), delegate: delegate)
    #expect(head.status == 200)
    #expect(head.headers["Content-Range"] == nil)
    #expect(delegate.body == body)
  }

  @Test func aRangeFromTheEndIsAnswered416WithTheLength() async throws {
    let transport = ScriptedTransport()
    transport.serve(url, ScriptedResource(body))
    let delegate = Received(.discard)
    let head = try await transport.perform(get(["Range": "bytes=100000-"]), delegate: delegate)
    #expect(head.status == 416)
    #expect(head.headers["Content-Range"] == "bytes */100000")
    #expect(delegate.parts.isEmpty)
  }

  @Test func aResourceWithoutRangesAlwaysAnswers200() async throws {
    let transport = ScriptedTransport()
    transport.serve(url, ScriptedResource(body, acceptsRanges: false))
    let delegate = Received()
    let head = try await transport.perform(get(["Range": "bytes=10-"]), delegate: delegate)
    #expect(head.status == 200)
    #expect(delegate.body == body)
  }

  @Test func queuedResponsesAnswerFirstThenTheRouteAndUnknownURLsGet404() async throws {
    let transport = ScriptedTransport()
    transport.serve(url, ScriptedResource(body))
    transport.enqueue(url, .status(503, retryAfter: "7"), .status(429, retryAfter: "1"))
    var statuses: [Int] = []
    var retryAfters: [String?] = []
    for _ in 0..<3 {
      let head = try await transport.perform(get(), delegate: Received(.discard))
      statuses.append(head.status)
      retryAfters.append(head.headers["Retry-After"])
    }
    #expect(statuses == [503, 429, 200])
    #expect(retryAfters == ["7", "1", nil])
    let other = try await transport.perform(
      HTTPRequest(url: URL(string: "https://origin.test/other")!), delegate: Received())
    #expect(other.status == 404)
  }

  @Test func aRouteReadsTheTokenAndAnswers401WhenItExpired() async throws {
    let transport = ScriptedTransport()
    transport.route(url) { request in
      request.query("token") == "fresh" ? .ok(Data("ok".utf8)) : .status(401)
    }
    let stale = try await transport.perform(get(query: "?token=old"), delegate: Received())
    let fresh = Received()
    let renewed = try await transport.perform(get(query: "?token=fresh"), delegate: fresh)
    #expect(stale.status == 401)
    #expect(renewed.status == 200)
    #expect(fresh.body == Data("ok".utf8))
    #expect(transport.requests(to: url).map { $0.query("token") } == ["old", "fresh"])
  }

  @Test func aCutBodyThrowsConnectionLostAsCurlDoesAfterTheBytesBeforeIt() async throws {
    let transport = ScriptedTransport()
    transport.enqueue(url, .ok(body).cut(after: 30000))
    let delegate = Received()
    let error = await #expect(throws: HTTPError.self) {
      try await transport.perform(get(), delegate: delegate)
    }
    #expect(error?.kind == .connectionLost)
    #expect(error?.curlCode == 18)
    #expect(delegate.body == body.prefix(30000))
    #expect(delegate.heads.first?.contentLength == Int64(body.count))
  }

  /// At once: the transport has no stall timeout to wait for (a hold limit of a minute
  /// would not end this test if it waited).
  @Test func aStallThrowsStalledAsCurlDoesAfterTheBytesBeforeIt() async throws {
    let transport = ScriptedTransport(holdLimit: .seconds(60))
    transport.enqueue(url, .ok(body).stalled(after: 5000))
    let delegate = Received()
    let error = await #expect(throws: HTTPError.self) {
      try await transport.perform(get(), delegate: delegate)
    }
    #expect(error?.kind == .stalled)
    #expect(error?.curlCode == 28)
    #expect(delegate.body == body.prefix(5000))
  }

  @Test func aFailureBeforeAnyResponseCallsNoCallback() async throws {
    let transport = ScriptedTransport()
    transport.enqueue(url, .failing(.cannotConnect))
    let delegate = Received()
    let error = await #expect(throws: HTTPError.self) {
      try await transport.perform(get(), delegate: delegate)
    }
    #expect(error?.kind == .cannotConnect)
    #expect(delegate.heads.isEmpty)
  }

  @Test func stopReturnsTheHeadWithoutTheBody() async throws {
    let transport = ScriptedTransport()
    transport.enqueue(url, .ok(body))
    let delegate = Received(.stop)
    let head = try await transport.perform(get(), delegate: delegate)
    #expect(head.status == 200)
    #expect(delegate.parts.isEmpty)
  }

  @Test func aThrowingDelegateEndsTheTransferWithDelegateFailed() async throws {
    let transport = ScriptedTransport()
    transport.enqueue(url, .ok(body).split(into: 1000))
    let delegate = Received(failsAfterParts: 2)
    let error = await #expect(throws: HTTPError.self) {
      try await transport.perform(get(), delegate: delegate)
    }
    #expect(error?.kind == .delegateFailed)
    #expect(error?.underlying is Received.Refusal)
    #expect(delegate.parts.count == 3)
  }

  @Test func aResponseHeldAtItsHeadWaitsForTheGate() async throws {
    let transport = ScriptedTransport()
    let gate = ScriptedGate()
    transport.enqueue(url, .ok(body).held(by: gate))
    let delegate = Received()
    let running = Task { try await transport.perform(get(), delegate: delegate) }
    #expect(await gate.reached())
    #expect(delegate.heads.isEmpty)
    #expect(transport.inFlight == 1)
    gate.open()
    let head = try await running.value
    #expect(head.status == 200)
    #expect(delegate.body == body)
    #expect(transport.inFlight == 0)
  }

  @Test func aResponseHeldAtAnOffsetHasDeliveredExactlyThatMuch() async throws {
    let transport = ScriptedTransport()
    let gate = ScriptedGate()
    transport.enqueue(url, .ok(body).split(into: 16384).held(by: gate, atOffset: 20000))
    let delegate = Received()
    let running = Task { try await transport.perform(get(), delegate: delegate) }
    #expect(await gate.reached())
    #expect(delegate.body == body.prefix(20000))
    gate.open()
    _ = try await running.value
    #expect(delegate.body == body)
  }

  @Test func aResponseHeldAtTwoOffsetsStopsAtEachInOrder() async throws {
    let transport = ScriptedTransport()
    let (first, second) = (ScriptedGate(), ScriptedGate())
    transport.enqueue(
      url, .ok(body).held(by: second, atOffset: 60000).held(by: first, atOffset: 1000))
    let delegate = Received()
    let running = Task { try await transport.perform(get(), delegate: delegate) }
    #expect(await first.reached())
    #expect(delegate.body == body.prefix(1000))
    #expect(second.arrivals == 0)
    first.open()
    #expect(await second.reached())
    #expect(delegate.body == body.prefix(60000))
    second.open()
    _ = try await running.value
    #expect(delegate.body == body)
  }

  @Test func cancellingAHeldRequestThrowsCancelledAndNoCallbackFollows() async throws {
    let transport = ScriptedTransport()
    let gate = ScriptedGate()
    transport.enqueue(url, .ok(body).held(by: gate, atOffset: 50000))
    let delegate = Received()
    let running = Task { try await transport.perform(get(), delegate: delegate) }
    #expect(await gate.reached())
    running.cancel()
    let error = await #expect(throws: HTTPError.self) { try await running.value }
    #expect(error?.kind == .canceled)
    gate.open()
    #expect(delegate.body == body.prefix(50000))
  }

  @Test func aGateNeverOpenedEndsTheRequestAsStalledAfterTheHoldLimit() async throws {
    let transport = ScriptedTransport(holdLimit: .milliseconds(50))
    transport.enqueue(url, .ok(body).held(by: ScriptedGate()))
    let error = await #expect(throws: HTTPError.self) {
      try await transport.perform(get(), delegate: Received())
    }
    #expect(error?.kind == .stalled)
  }

  @Test func waitingForAGateNobodyReachesGivesUpAfterItsBound() async {
    let gate = ScriptedGate()
    #expect(await gate.reached(within: .milliseconds(50)) == false)
    #expect(gate.arrivals == 0)
  }

  @Test func concurrentRequestsAreCountedWhileHeld() async throws {
    let transport = ScriptedTransport()
    let gate = ScriptedGate()
    transport.route(url) { _ in .ok(Data("x".utf8)).held(by: gate) }
    let requests = (0..<3).map { _ in
      Task { try await transport.perform(get(), delegate: Received()) }
    }
    #expect(await gate.reached(3))
    #expect(transport.inFlight == 3)
    gate.open()
    for request in requests { _ = try await request.value }
    #expect(transport.mostInFlight == 3)
    #expect(transport.requests.count == 3)
    #expect(transport.requests.allSatisfy { $0.method == .get })
  }
}
