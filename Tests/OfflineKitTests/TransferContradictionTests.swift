import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Responses that contradict the bytes already on disk: another encoding, another length.
/// None of them may be written after those bytes, and none may complete a file.
@Suite(.timed) struct TransferContradictionTests {
  let body = TestData.bytes(count: 1 << 20, seed: 31)
  let cut = 256 << 10

  /// A 206 for the rest of the file, in gzip, padded to the length of the range.
  var paddedGzip206: FaultServer.Behaviour {
    let gzipHeader = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03])
    let payload = gzipHeader + Data(count: body.count - cut - gzipHeader.count)
    return .status(
      code: 206,
      headers: [
        ("ETag", "\"v1\""), ("Content-Encoding", "gzip"),
        ("Content-Range", "bytes \(cut)-\(body.count - 1)/\(body.count)"),
      ], body: payload)
  }

  var cutOnce: FaultServer.Behaviour {
    .resource(.init(body: body, faults: .init(cutAfterBodyBytes: cut)))
  }

  // Pins: a resume answered with a gzip 206 padded to the range length was appended, leaving
  // a gzip header at the resume offset in a file reported as saved.
  @Test func aGzip206IsNeverWrittenAfterIdentityBytes() async throws {
    let fixture = try TransferFixture()
    let (_, outcome, log) = try await fixture.download(
      .sequence([cutOnce, paddedGzip206, .resource(.init(body: body))]))

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.encodingChanged])
  }

  // Pins: short gzip 206 bodies were appended as progress, so retries never ran out (994
  // requests in 500 s). Now a gzip 206 is never written: one start-over, from byte 0.
  @Test func shortGzip206sAreNotProgressAndTheFileStartsOverOnce() async throws {
    let server = try FaultServer()
    server.setRoute(
      "/f", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: cut, gzipRanges: true))))
    let fixture = try TransferFixture()
    let log = EventLog()
    let outcome = try await boundedRun(fixture.transfer(server.url("/f")), log: log)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.encodingChanged])
    #expect(server.requests(for: "/f").count == 3)
  }

  @Test func aServerThatKeepsAnsweringInGzipFailsClearlyAfterAFewRequests() async throws {
    let server = try FaultServer()
    server.setRoute(
      "/f",
      .resource(
        .init(
          body: body, faults: .init(cutAfterBodyBytes: cut, cutResponses: .max, gzipRanges: true))))
    let fixture = try TransferFixture()
    do {
      _ = try await boundedRun(fixture.transfer(server.url("/f")), log: EventLog())
      Issue.record("a gzip body was accepted")
    } catch let error as Transfer.Error {
      guard case .protocolViolation(let what) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(what.contains("encoding"), "\(what)")
    }
    #expect(server.requests(for: "/f").count <= 10)
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
    let part = FileManager.default.contents(atPath: fixture.destination() + ".part") ?? Data()
    #expect(body.starts(with: part), "the part holds bytes that are not the file's")
  }

  /// Runs `transfer`, cancelling it after 20 s: before the fix a gzip server kept it running
  /// for about 100,000 requests; it then ends as `.canceled`.
  func boundedRun(_ transfer: Transfer, log: EventLog) async throws -> Transfer.Outcome {
    let running = Task { try await transfer.run(onEvent: log.record) }
    let watchdog = Task {
      try await Task.sleep(for: .seconds(20))
      running.cancel()
    }
    defer { watchdog.cancel() }
    return try await running.value
  }

  /// A 200 that promises ten times the body and closes after the body.
  var lyingLength: FaultServer.Behaviour {
    .resource(
      .init(body: body, faults: .init(cutResponses: .max, declaredExtraLength: 9 * body.count)))
  }

  var short416: FaultServer.Behaviour {
    .status(code: 416, headers: [("Content-Range", "bytes */\(body.count)")])
  }

  // Pins: the 416 of the resume stated the short length, the promised one was forgotten, and
  // the short body was saved as a complete file.
  @Test func a416ThatContradictsThePromisedLengthNeverCompletesTheFile() async throws {
    let server = try FaultServer()
    server.setRoute(
      "/f", .sequence(Array(repeating: [lyingLength, short416], count: 8).flatMap { $0 }))
    let fixture = try TransferFixture()
    let log = EventLog()
    do {
      _ = try await fixture.transfer(server.url("/f")).run(onEvent: log.record)
      Issue.record("a body shorter than its promised length completed the file")
    } catch {
      #expect("\(error)".contains("length"), "\(error)")
    }
    #expect(log.restartReasons.contains(.lengthChanged))
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
    #expect(server.requests(for: "/f").count <= 12)
  }

  @Test func aServerThatStopsContradictingItselfFinishesFromZero() async throws {
    let fixture = try TransferFixture()
    let (server, outcome, log) = try await fixture.download(
      .sequence([lyingLength, short416, .resource(.init(body: body))]))

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.lengthChanged])
    #expect(server.requests(for: "/f").last?.headers["range"] == nil)
  }

  // A 206 whose body runs past the end its Content-Range names: only the named bytes are
  // the range; the rest (zeros here) must not land in the file.
  @Test func a206BodyLongerThanItsContentRangeIsNotWrittenPastTheRange() async throws {
    let server = try FaultServer()
    let overlong: FaultServer.Behaviour = .status(
      code: 206,
      headers: [
        ("ETag", "\"v1\""), ("Content-Range", "bytes \(cut)-\(cut + 999)/\(body.count)"),
      ], body: body[cut..<(cut + 1000)] + Data(count: body.count - cut - 1000))
    server.setRoute("/f", .sequence([cutOnce, overlong, .resource(.init(body: body))]))
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(server.url("/f")).run()
    #expect(fileData(outcome.destination) == body)
  }
}
