import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A download meets a reply that is not HTTP, or a head too large (issue 11, item 9).
@Suite(.timed) struct GarbageReplyTests {
  let body = TestData.bytes(count: 300_000, seed: 91)

  /// Pins issue 11, item 9: a non-HTTP reply failed the download at once as "Only http and
  /// https URLs can be downloaded, not http"; it is a transient fault, retried.
  @Test func aReplyThatIsNotHTTPIsRetriedAndTheFileFinishes() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/f",
      .sequence([.raw(Data("SSH-2.0-OpenSSH_9.2\r\n".utf8)), .resource(.init(body: body))]))
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(server.url("/f")).run()

    #expect(fileData(outcome.destination) == body)
    #expect(server.requests(for: "/f").count == 2)
  }

  /// Pins issue 11, item 9: a reply that is never HTTP ends, after the retries, with "did
  /// not answer with HTTP", and nothing at the destination.
  @Test func aServerThatNeverAnswersHTTPFailsSayingSo() async throws {
    let server = try await expectFailure(
      serving: .raw(Data("220 ftp.example.com FTP server ready\r\n".utf8)), attempts: 3,
      kind: .notHTTP, saying: "did not answer with HTTP")
    #expect(server.requests(for: "/f").count == 3, "retried like other transient faults")
  }

  /// Pins issue 11, item 9: 300 KB of header fields; the download gives up after one retry
  /// (made by the transport), whatever the retry budget, with "response headers too large".
  @Test func hugeResponseHeadersGiveUpAfterOneRetry() async throws {
    let server = try await expectFailure(
      serving: .hugeHeaders(headerBytes: 300_000, body: body), attempts: 5,
      kind: .headersTooLarge, saying: "response headers too large")
    #expect(server.requests(for: "/f").count == 2)
  }

  /// Downloads `/f` served as `behaviour` with at most `attempts` attempts, expecting a
  /// network error of `kind` whose message says `words`, and nothing at the destination;
  /// returns the server, for its requests.
  func expectFailure(
    serving behaviour: FaultServer.Behaviour, attempts: Int, kind: HTTPError.Kind,
    saying words: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> FaultServer {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/f", behaviour)
    let fixture = try TransferFixture()
    let options = Options.quick { $0.retry.maximumAttempts = attempts }
    await #expect(sourceLocation: sourceLocation) {
      try await fixture.transfer(server.url("/f"), configuration: options).run()
    } throws: { error in
      guard let error = error as? Transfer.Error, case .network(let http) = error.kind else {
        return false
      }
      return http.kind == kind && "\(error)".contains(words)
    }
    #expect(
      !FileManager.default.fileExists(atPath: fixture.destination()),
      sourceLocation: sourceLocation)
    return server
  }
}
