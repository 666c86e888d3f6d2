import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Replies that are not HTTP, and heads too large to take (issue 11, item 9).
@Suite(.timed) struct CurlTransportGarbageTests {
  /// Pins issue 11, item 9: a reply that is not HTTP (libcurl 7.88 says "Received HTTP/0.9
  /// when not allowed", CURLE_UNSUPPORTED_PROTOCOL) was reported as "Only http and https
  /// URLs can be downloaded, not http" and never retried.
  @Test func aReplyThatIsNotHTTPFailsAsSuchAndMayBeRetried() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .raw(Data("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n".utf8)))
    let error = try #require(await CurlTransport().failure(of: server.url("/a.bin")))

    #expect(error.kind == .notHTTP)
    #expect(error.isTransient)
    #expect("\(error)".contains("did not answer with HTTP"), "\(error)")
    #expect(!"\(error)".contains("Only http and https"), "\(error)")
  }

  /// Pins issue 11, item 9: binary garbage where a status line belongs is the same fault.
  @Test func binaryGarbageWhereTheStatusLineBelongsIsNotHTTP() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .raw(Data((0..<1024).map { UInt8($0 % 256) })))
    let error = try #require(await CurlTransport().failure(of: server.url("/a.bin")))

    #expect(error.kind == .notHTTP)
    #expect(error.isTransient)
  }

  /// Pins issue 11, item 9: 300 KB of header fields (each line short) were taken whole;
  /// a server could make the head as large as it liked.
  @Test func manyHeaderFieldsTooLargeInAllAreRefusedAfterOneRetry() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .hugeHeaders(headerBytes: 300_000))
    let delegate = RecordingDelegate()
    let error = try #require(
      await CurlTransport().failure(of: server.url("/a.bin"), delegate: delegate))

    #expect(error.kind == .headersTooLarge)
    #expect(!error.isTransient, "retrying it again would only meet the same head")
    #expect("\(error)".contains("response headers too large"), "\(error)")
    #expect(server.requests(for: "/a.bin").count == 2, "tried once more, then gave up")
    #expect(delegate.heads.isEmpty, "no head reached the delegate")
  }

  /// Pins issue 11, item 9: one header line longer than libcurl takes (100 KB in 7.88)
  /// failed as "Out of memory" (CURLE_OUT_OF_MEMORY).
  @Test func oneHugeHeaderLineIsResponseHeadersTooLargeNotOutOfMemory() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let line = String(repeating: "a", count: 300_000)
    server.setRoute("/a.bin", .status(code: 200, headers: [("X-Big", line)], body: Data("ok".utf8)))
    let error = try #require(await CurlTransport().failure(of: server.url("/a.bin")))

    #expect(error.kind == .headersTooLarge)
    #expect(!"\(error)".contains("Out of memory"), "\(error)")
    #expect("\(error)".contains("response headers too large"), "\(error)")
    #expect(server.requests(for: "/a.bin").count == 2, "tried once more, then gave up")
  }

  /// A head within the limit is taken as before: 100 KB of fields.
  @Test func aLargeButReasonableHeadIsAccepted() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .hugeHeaders(headerBytes: 100_000))
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: server.url("/a.bin")), delegate: delegate)

    #expect(head.status == 200)
    #expect(delegate.body == Data("ok\n".utf8))
  }
}
