import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Resuming, restarting and verifying against our fault server, which cuts, lies and
/// changes content on demand.
@Suite(.timed) struct TransferResumeTests {
  let body = TestData.bytes(count: 4 << 20, seed: 7)

  @Test func resumesAfterACutWithRangeAndIfRange() async throws {
    let fixture = try TransferFixture()
    let (server, outcome, log) = try await fixture.download(
      .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 1 << 20))))

    #expect(fileData(outcome.destination) == body)
    let requests = server.requests(for: "/f")
    #expect(requests.count == 2)
    #expect(requests[0].headers["range"] == nil)
    #expect(requests[1].headers["range"] == "bytes=\(1 << 20)-")
    #expect(requests[1].headers["if-range"] == "\"v1\"")
    #expect(log.retries == 1)
    #expect(log.requestedOffsets == [0, 1 << 20])
    #expect(outcome.bytesReceived == Int64(body.count))
  }

  @Test func aChangedETagBetweenRunsRestartsFromZero() async throws {
    let server = try FaultServer()
    server.setRoute(
      "/f", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 1 << 20))))
    let fixture = try TransferFixture()
    let once = Options.quick { $0.retry.maximumAttempts = 1 }
    await #expect(throws: Transfer.Error.self) {
      try await fixture.transfer(server.url("/f"), configuration: once).run()
    }
    #expect(FileSteps.regularFileSize(fixture.destination() + ".part") == 1 << 20)

    let changed = TestData.bytes(count: 3 << 20, seed: 8)
    server.setRoute("/f", .resource(.init(body: changed, etag: "\"v2\"")))
    let log = EventLog()
    let outcome = try await fixture.transfer(server.url("/f")).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == changed)
    #expect(server.requests(for: "/f").last?.headers["if-range"] == "\"v1\"")
    #expect(log.restartReasons == [.resourceChanged])
  }

  @Test func aServerIgnoringRangesRestartsCleanly() async throws {
    let fixture = try TransferFixture()
    let (_, outcome, log) = try await fixture.download(
      .resource(.init(body: body, acceptsRanges: false, faults: .init(cutAfterBodyBytes: 1 << 20))))

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.rangesIgnored])
  }

  @Test func aBodyShorterThanContentLengthIsResumedNotPassedOff() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body, faults: .init(declaredExtraLength: 1000))))
    let fixture = try TransferFixture()
    let once = Options.quick { $0.retry.maximumAttempts = 1 }
    do {
      _ = try await fixture.transfer(server.url("/f"), configuration: once).run()
      Issue.record("a short body was accepted")
    } catch {
      guard case .network(let http) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(http.kind == .connectionLost)
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))

    // The next run asks for the rest; the server, no longer faulty, completes the file.
    let outcome = try await fixture.transfer(server.url("/f")).run()
    #expect(fileData(outcome.destination) == body)
  }

  @Test func aContentRangeStartingElsewhereIsNeverAppended() async throws {
    let fixture = try TransferFixture()
    let (_, outcome, log) = try await fixture.download(
      .resource(
        .init(body: body, faults: .init(cutAfterBodyBytes: 1 << 20, contentRangeShift: 512))))

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.rangeMismatch])
  }

  @Test func a416ForAWholePartIsReadNotWritten() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    let destination = fixture.destination()
    try fixture.seedPart(body, url: server.url("/f"))

    let outcome = try await fixture.transfer(server.url("/f")).run()

    #expect(fileData(destination) == body)
    #expect(outcome.bytesReceived == 0)
    #expect(server.requests(for: "/f").first?.headers["range"] == "bytes=\(body.count)-")
  }

  @Test func aPartLongerThanTheFileStartsOverAfterA416() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    try fixture.seedPart(body + Data(count: 100), url: server.url("/f"))
    let log = EventLog()

    let outcome = try await fixture.transfer(server.url("/f")).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.lengthChanged])
  }

  @Test func aPartWithoutAJournalIsNotTrusted() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    try fixture.seedPart(
      Data(repeating: 0xAA, count: 1000), url: server.url("/f"), journalETag: nil)
    let log = EventLog()

    let outcome = try await fixture.transfer(server.url("/f")).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.unknownPartialFile])
    #expect(server.requests(for: "/f").first?.headers["range"] == nil)
  }

  @Test func afterARebootOnlyDurableBytesAreTrusted() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .resource(.init(body: body)))
    let fixture = try TransferFixture()
    try fixture.seedPart(body.prefix(2 << 20), url: server.url("/f"))
    var record = try #require(
      try fixture.index.transfers.record(forDestination: fixture.destination()))
    record.bootID = "an-earlier-boot"
    record.durableOffset = 1 << 20
    record.totalLength = Int64(body.count)
    try fixture.index.transfers.save(record)

    let outcome = try await fixture.transfer(server.url("/f")).run()

    #expect(fileData(outcome.destination) == body)
    #expect(server.requests(for: "/f").first?.headers["range"] == "bytes=\(1 << 20)-")
  }

  @Test func transientStatusesAreRetriedHonouringRetryAfter() async throws {
    let fixture = try TransferFixture()
    let (_, outcome, log) = try await fixture.download(
      .sequence([
        .status(code: 503, headers: [("Retry-After", "1")]), .status(code: 500),
        .resource(.init(body: body)),
      ]))

    #expect(fileData(outcome.destination) == body)
    let delays = log.events.compactMap { event -> Duration? in
      if case .retrying(_, let delay, _) = event { return delay }
      return nil
    }
    #expect(delays.count == 2)
    #expect(delays.first == .seconds(1))
  }

  @Test func permanentStatusesFailAtOnce() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .status(code: 404))
    let fixture = try TransferFixture()
    do {
      _ = try await fixture.transfer(server.url("/f")).run()
      Issue.record("a 404 succeeded")
    } catch {
      guard case .status(404, _) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.description.contains("404"))
    }
    #expect(server.requests(for: "/f").count == 1)
  }

  @Test func retriesStopAfterTheLimitWithoutProgress() async throws {
    let server = try FaultServer()
    server.setRoute("/f", .status(code: 503))
    let fixture = try TransferFixture()
    let three = Options.quick { $0.retry.maximumAttempts = 3 }
    await #expect(throws: Transfer.Error.self) {
      try await fixture.transfer(server.url("/f"), configuration: three).run()
    }
    #expect(server.requests(for: "/f").count == 3)
  }
}
