import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Rows of the fault matrix (docs/Reliability.md) about the network that the older suites
/// do not cover: every one ends with the server's exact bytes at the destination, or with an
/// error and nothing there, never with a corrupt file reported complete.
@Suite(.timed) struct FaultNetworkTests {
  let body = TestData.bytes(count: 2 << 20, seed: 21)

  /// Matrix row "connection cut after N body bytes, on every response".
  @Test func aCutOnEveryResponseStillFinishesBecauseEachCutMakesProgress() async throws {
    let fixture = try TransferFixture()
    let (server, outcome, log) = try await fixture.download(
      .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 300_000, cutResponses: .max))),
      configuration: Options.quick { $0.retry.maximumAttempts = 2 })

    #expect(fileData(outcome.destination) == body)
    let requests = server.requests(for: "/f")
    #expect(requests.count == (body.count + 299_999) / 300_000)
    #expect(log.restartReasons.isEmpty)
    #expect(log.requestedOffsets == (0..<requests.count).map { Int64($0 * 300_000) })
  }

  /// Matrix row "Content-Length larger than the body": a 200 without validators claims the
  /// whole length, sends half and closes. Nothing validates a resume, so the next attempt
  /// starts over and the file is whole.
  @Test func aContentLengthLargerThanTheBodyWithoutValidatorsStartsOver() async throws {
    let server = try FaultServer()
    let half = body.prefix(body.count / 2)
    server.setRoute(
      "/f",
      .sequence([
        .status(code: 200, headers: [("Content-Length", "\(body.count)")], body: Data(half)),
        .resource(.init(body: body, etag: nil)),
      ]))
    let fixture = try TransferFixture()
    let log = EventLog()
    let outcome = try await fixture.transfer(server.url("/f")).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.retries == 1)
    #expect(server.requests(for: "/f").last?.headers["range"] == nil)
  }

  /// Matrix row "a stall mid-body": the stall timeout ends each stalled response and the
  /// next attempt resumes where the bytes stopped.
  ///
  /// Pins a late stall: libcurl's own check, which reads a speed averaged over about five
  /// seconds, ended this response 7.2 s after the first megabyte, not 1 s. The transport's
  /// watch ends it at the timeout, and says so.
  @Test func aStallMidBodyTimesOutAndResumesWhereItStopped() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/f",
      .resource(
        .init(body: body, faults: .init(stallAfterBodyBytes: 1 << 20, stallSeconds: 60))))
    let fixture = try TransferFixture(stallTimeout: .seconds(1))
    let log = EventLog()
    let outcome = try await fixture.transfer(server.url("/f")).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.requestedOffsets == [0, 1 << 20])
    #expect(log.restartReasons.isEmpty)
    let stalls = log.events.compactMap { event -> String? in
      if case .retrying(_, _, let error) = event { return "\(error)" }
      return nil
    }
    #expect(stalls.count == 1 && stalls[0].contains("nothing received for 1000 ms"), "\(stalls)")
  }

  /// Matrix row "slow trickle": a slow body that keeps moving is never taken for a stall.
  @Test func aSlowTrickleFinishesWithoutARetry() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let small = body.prefix(96_000)
    server.setRoute(
      "/f", .resource(.init(body: Data(small), faults: .init(bytesPerSecond: 64_000))))
    let fixture = try TransferFixture(stallTimeout: .seconds(1))
    let log = EventLog()
    let outcome = try await fixture.transfer(server.url("/f")).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == Data(small))
    #expect(log.retries == 0)
  }

  /// Matrix row "429 with Retry-After".
  @Test func a429IsRetriedAfterTheDelayItAsksFor() async throws {
    let fixture = try TransferFixture()
    let (_, outcome, log) = try await fixture.download(
      .sequence([
        .status(code: 429, headers: [("Retry-After", "1")]), .resource(.init(body: body)),
      ]))

    #expect(fileData(outcome.destination) == body)
    let delays = log.events.compactMap { event -> Duration? in
      if case .retrying(_, let delay, _) = event { return delay }
      return nil
    }
    #expect(delays == [.seconds(1)])
  }

  /// Matrix row "DNS failure": a transient network error, nothing written.
  @Test func aNameThatDoesNotResolveFailsWithNothingWritten() async throws {
    let fixture = try TransferFixture()
    let options = Options.quick { $0.retry.maximumAttempts = 2 }
    do {
      _ = try await fixture.transfer(
        URL(string: "http://offlinekit-fault.invalid/f")!, configuration: options
      ).run()
      Issue.record("a name that does not resolve downloaded something")
    } catch {
      guard case .network = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.isTransient)
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
  }

  /// Matrix rows "redirect to file://" and "redirect to ftp://": refused before any I/O on
  /// the target; the local file it names is never copied.
  @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/etc/passwd"])
  func aRedirectToANonHTTPSchemeIsRefusedAndNothingIsWritten(location: String) async throws {
    let server = try FaultServer()
    server.setRoute("/f", .redirect(location: location))
    let fixture = try TransferFixture()
    do {
      _ = try await fixture.transfer(server.url("/f")).run()
      Issue.record("a redirect to \(location) was followed")
    } catch {
      guard case .network(let http) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      guard case .redirectRefused = http.kind else {
        Issue.record("unexpected \(http)")
        return
      }
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
    #expect(!FileManager.default.fileExists(atPath: fixture.destination() + ".part"))
  }

  /// Matrix row "Content-Encoding: gzip nested, decompressing to gigabytes": we ask for
  /// `identity`; a server that answers with a gzip bomb anyway is stored byte for byte as
  /// sent (773 bytes that would inflate to 1 GiB), never decoded in memory or on disk.
  @Test func aGzipBombIsStoredAsSentNeverInflated() async throws {
    let bomb = Data(base64Encoded: Self.gzipBombOf1GiB, options: .ignoreUnknownCharacters)!
    #expect(bomb.count == 773)
    let server = try FaultServer()
    server.setRoute(
      "/f",
      .status(
        code: 200,
        headers: [("Content-Encoding", "gzip, gzip, gzip"), ("ETag", "\"bomb\"")],
        body: bomb))
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(server.url("/f")).run()

    #expect(fileData(outcome.destination) == bomb)
    #expect(outcome.length == 773)
    let accept = server.requests(for: "/f").first?.headers["accept-encoding"]
    #expect(accept == nil || accept == "identity")
  }

  /// `head -c 1G /dev/zero | gzip -1 | gzip -9 | gzip -9`, base64.
  static let gzipBombOf1GiB = """
    H4sIAAAAAAACA+3Wa0uTYRgH8KVURoppUaCLiYJlllMRpfJIgrPSZJhoySzTpU3LUjNd7okKEp1IiOXmYZYy2cStoXiYy5Uz
    rSbN4WxoHjKxeWibFk8e5rNV7/oA18v7/gB/rguuP/ePUuFA+vfs7I3agHNnchuH5mwBV0P9qFGZV9KGnNy1TLkoY9Q7ep9S
    dUBYG//4xODn/XuSFQ4+3WS1qFMWHJ/JS4+S8QcGPGsavt77Hkq5psknxG39Zpu1nZvY3ZF63lWsJFbMts3hJayAs66WYm6a
    NjsSyGtq2Ji1Wktawqka4fT4DEZsYtaTggKYcNKlivTe2ugbSQLTD/5OmMjANxtyfaVw2ZLBsnw4DpM5yhl8u+lBN+OXe5kH
    YSLfk6TdDZ78XbhaK0uBifSwH2ETgfS0KnazbwdMZKTF5RBFRQvTO7vXMXeARD5wzMN65K5xKkFfHQ9s80SCwGmljMa4Pqgx
    fzcn+3k/5Y+3ngaLdPTvNxU2i7bCJyY5gXthVu+k3M4LL9OxiSQJD6xBK7mtZcIo4k5BDti1/2IouTr9/MziR7hOvhv2p2tw
    1ZAQ7IymKBJJ9NiqwcSE6/lFDAujC55fH5MAjdlEHH1WEdvCxJc+ScA250rZ01ni/gtdXYIRoK/DGEOud/bEGcoaFliDVku+
    +LzMTlCSD9eBXbtCT/XC8Z4QOWAn1wK4unzilSwb7IzWn7T5aoO2e/t4YD2PHJ9Nq9IZFiY6WUBjZkWUL6S7ilJK5R0ssM3n
    VxghfLG5ut14BO5b2214RHutv7XAB2uQYuZueZabjhozDPdfmHE1rTTMVCmB62TqfUcvPDUiJwcOXMTc8tkgJ8x0kwm2eQK+
    rvfCi4uDjVBjTlYhaiJqImoiaiJqImoiaiJqImoiaiJqImoiaiJqImoiaiJqImoiaiJqImoiaiJqImoiaiJqImoiaiJqImr+
    18nCv6cpnPtmsHEsxGKRcnurdU1x7NSqjVQdMWWbl2KxZsL9ocuLrZ9FMaQ/roeNPPspAAA=
    """

  /// Matrix row "content changing under the same ETag and length": the splice cannot be
  /// seen by validators, but the expected SHA-256 catches it; the part is dropped, nothing
  /// is at the destination, and the next run downloads the new content whole.
  @Test func contentChangedUnderTheSameETagAndLengthIsCaughtByTheChecksum() async throws {
    let server = try FaultServer()
    server.setRoute(
      "/f", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 1 << 20))))
    let fixture = try TransferFixture()
    let changed = TestData.bytes(count: body.count, seed: 22)
    let expected = try await TestData.sha256Hex(of: changed)
    let once = Options.quick {
      $0.retry.maximumAttempts = 1
      $0 = $0.expecting(sha256: expected)
    }
    await #expect(throws: Transfer.Error.self) {
      try await fixture.transfer(server.url("/f"), configuration: once).run()
    }
    server.setRoute("/f", .resource(.init(body: changed)))  // same ETag "v1", same length
    do {
      _ = try await fixture.transfer(server.url("/f"), configuration: once).run()
      Issue.record("a spliced file was passed off as complete")
    } catch {
      guard case .checksumMismatch = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
    #expect(server.requests(for: "/f").last?.headers["range"] == "bytes=\(1 << 20)-")

    let outcome = try await fixture.transfer(server.url("/f"), configuration: once).run()
    #expect(fileData(outcome.destination) == changed)
  }
}
