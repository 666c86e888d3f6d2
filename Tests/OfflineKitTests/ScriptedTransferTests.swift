import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A real `Transfer` reads the scripted transport as it reads curl: the decisions about
/// resume, restart, 416, retry and cancel, with no server and no waiting for real time.
@Suite(.timed) struct ScriptedTransferTests {
  let url = URL(string: "https://origin.test/f")!
  let body = TestData.bytes(count: 1 << 20, seed: 7)

  func fixture() throws -> (TransferFixture, ScriptedTransport) {
    let transport = ScriptedTransport()
    return (try TransferFixture(transport: transport), transport)
  }

  @Test func aCutIsResumedWithRangeAndIfRangeAndOnly206BytesAreAppended() async throws {
    let (fixture, transport) = try fixture()
    transport.serve(url, ScriptedResource(body))
    transport.enqueue(url, .ok(body).cut(after: 300_000))
    let log = EventLog()

    let outcome = try await fixture.transfer(url).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    let requests = transport.requests(to: url)
    #expect(requests.map(\.range) == [nil, "bytes=300000-"])
    #expect(requests.last?.ifRange == "\"v1\"")
    #expect(log.retries == 1)
    #expect(log.requestedOffsets == [0, 300_000])
    #expect(outcome.bytesReceived == Int64(body.count))
  }

  @Test func a200ToARangeRequestRestartsFromZeroNotAppendedAtTheOffset() async throws {
    let (fixture, transport) = try fixture()
    let changed = TestData.bytes(count: 900_000, seed: 8)
    transport.serve(url, ScriptedResource(changed, etag: "\"v2\""))
    try fixture.seedPart(body.prefix(300_000), url: url)
    let log = EventLog()

    let outcome = try await fixture.transfer(url).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == changed)
    #expect(transport.requests(to: url).first?.range == "bytes=300000-")
    #expect(transport.requests(to: url).first?.ifRange == "\"v1\"")
    #expect(log.restartReasons == [.resourceChanged])
  }

  @Test func a206FromAnotherOffsetIsNotAppended() async throws {
    let (fixture, transport) = try fixture()
    transport.serve(url, ScriptedResource(body))
    transport.enqueue(url, .partial(body, from: 1000))
    try fixture.seedPart(body.prefix(300_000), url: url)
    let log = EventLog()

    let outcome = try await fixture.transfer(url).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.rangeMismatch])
  }

  @Test func a416ForAWholePartIsReadNotWritten() async throws {
    let (fixture, transport) = try fixture()
    transport.serve(url, ScriptedResource(body))
    try fixture.seedPart(body, url: url)

    let outcome = try await fixture.transfer(url).run()

    #expect(fileData(outcome.destination) == body)
    #expect(outcome.bytesReceived == 0)
    #expect(transport.requests(to: url).map(\.range) == ["bytes=\(body.count)-"])
  }

  @Test func aPartLongerThanTheFileStartsOverAfterA416() async throws {
    let (fixture, transport) = try fixture()
    transport.serve(url, ScriptedResource(body))
    try fixture.seedPart(body + Data(count: 100), url: url)
    let log = EventLog()

    let outcome = try await fixture.transfer(url).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.lengthChanged])
  }

  @Test(arguments: [503, 429])
  func aBusyServerIsRetriedAfterItsRetryAfter(status: Int) async throws {
    let (fixture, transport) = try fixture()
    transport.serve(url, ScriptedResource(body))
    transport.enqueue(url, .status(status, retryAfter: "0"))
    let log = EventLog()
    // A backoff of its own of 2-4 s: only the server's Retry-After makes the retry come at
    // once (a real wait until the configurations take a clock).
    let patient = Options.quick {
      $0.retry = RetryPolicy(initialDelay: .seconds(3), maximumDelay: .seconds(60))
    }

    let outcome = try await fixture.transfer(url, configuration: patient).run(
      onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    let delays = log.events.compactMap { event -> Duration? in
      if case .retrying(_, let delay, _) = event { return delay }
      return nil
    }
    #expect(delays == [.zero])
    #expect(transport.requests(to: url).count == 2)
  }

  @Test func aStallIsRetriedFromWhereItStood() async throws {
    let (fixture, transport) = try fixture()
    transport.serve(url, ScriptedResource(body))
    transport.enqueue(url, .ok(body).stalled(after: 200_000))
    let log = EventLog()

    let outcome = try await fixture.transfer(url).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.requestedOffsets == [0, 200_000])
  }

  @Test func anExpiredTokenIsNotRetriedWithoutARefresh() async throws {
    let (fixture, transport) = try fixture()
    transport.enqueue(url, .status(403))
    let once = Options.quick { $0.retry.maximumAttempts = 3 }

    let error = await #expect(throws: Transfer.Error.self) {
      try await fixture.transfer(url, configuration: once).run()
    }

    guard case .status(403, _)? = error?.kind else {
      Issue.record("expected a 403, got \(String(describing: error))")
      return
    }
    #expect(transport.requests(to: url).count == 1)
  }

  @Test func aCancelWhileHeldKeepsThePartAndTheNextRunResumesIt() async throws {
    let (fixture, transport) = try fixture()
    let gate = ScriptedGate()
    transport.serve(url, ScriptedResource(body))
    transport.enqueue(url, .ok(body).held(by: gate, atOffset: 400_000))

    let running = Task { try await fixture.transfer(url).run() }
    #expect(await gate.reached())
    running.cancel()
    let error = await #expect(throws: Transfer.Error.self) { try await running.value }
    guard case .canceled? = error?.kind else {
      Issue.record("expected a cancel, got \(String(describing: error))")
      return
    }
    #expect(FileSteps.regularFileSize(fixture.destination() + ".part") == 400_000)

    let outcome = try await fixture.transfer(url).run()
    #expect(fileData(outcome.destination) == body)
    #expect(transport.requests(to: url).last?.range == "bytes=400000-")
  }
}
