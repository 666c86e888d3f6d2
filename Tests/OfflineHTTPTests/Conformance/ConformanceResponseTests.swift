import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// What every transport hands back from nginx and the fault server: bodies, ranges,
/// statuses, dispositions and the request's own header fields (issue 18, item 1).
@Suite(.timed) struct ConformanceResponseTests {
  let size = (3 << 20) + 123

  @Test(arguments: TransportFactory.all)
  func downloadsAFileByteForByte(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 1)])
    let delegate = RecordingDelegate()
    let head = try await factory.make().perform(
      HTTPRequest(url: nginx.url("/a.bin")), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.contentLength == Int64(size))
    #expect(head.url == nginx.url("/a.bin"))
    #expect(delegate.heads == [head])
    #expect(delegate.partCount >= 1)
    #expect(
      try await TestData.sha256Hex(of: delegate.body)
        == TestData.sha256Hex(of: nginx.root.file("a.bin")))
    let log = try await nginx.server.accessLog(minimumCount: 1)
    #expect(log.first?.acceptEncoding == "identity")
    #expect(log.first?.userAgent?.hasPrefix("OfflineKit/") == true)
  }

  @Test(arguments: TransportFactory.all)
  func returnsA404AsAResponseNotAnError(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: [:])
    let delegate = RecordingDelegate()
    let head = try await factory.make().perform(
      HTTPRequest(url: nginx.url("/missing.bin")), delegate: delegate)

    #expect(head.status == 404)
    #expect(delegate.heads == [head])
  }

  @Test(arguments: TransportFactory.all)
  func answersARangeWith206AndExactlyThoseBytes(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 2)])
    let delegate = RecordingDelegate()
    let request = HTTPRequest(url: nginx.url("/a.bin"), headers: ["Range": "bytes=1000-1999"])
    let head = try await factory.make().perform(request, delegate: delegate)

    #expect(head.status == 206)
    #expect(head.headers["Content-Range"] == "bytes 1000-1999/\(size)")
    #expect(delegate.body == TestData.bytes(count: 2000, seed: 2).suffix(from: 1000))
  }

  /// RFC 9110 §13.1.5: a matching validator gives the range, another one the whole body.
  @Test(arguments: TransportFactory.all)
  func ifRangeGivesTheRangeOnlyWhileTheValidatorMatches(_ factory: TransportFactory)
    async throws
  {
    let server = try FaultServer()
    defer { server.stop() }
    let body = TestData.bytes(count: 10_000, seed: 3)
    server.setRoute("/a.bin", .resource(.init(body: body, etag: "\"v2\"")))
    let transport = factory.make()
    let matching = RecordingDelegate()
    let ranged = try await transport.perform(
      HTTPRequest(
        url: server.url("/a.bin"), headers: ["Range": "bytes=100-", "If-Range": "\"v2\""]),
      delegate: matching)
    let stale = RecordingDelegate()
    let whole = try await transport.perform(
      HTTPRequest(
        url: server.url("/a.bin"), headers: ["Range": "bytes=100-", "If-Range": "\"v1\""]),
      delegate: stale)

    #expect(ranged.status == 206)
    #expect(matching.body == body.suffix(from: 100))
    #expect(whole.status == 200)
    #expect(stale.body == body)
    let sent = server.requests(for: "/a.bin")
    #expect(sent.map { $0.headers["if-range"] } == ["\"v2\"", "\"v1\""])
    #expect(sent.map { $0.headers["range"] } == ["bytes=100-", "bytes=100-"])
  }

  @Test(arguments: TransportFactory.all)
  func discardsTheBodyOfA416WhenTheDelegateSaysSo(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 1)])
    let delegate = RecordingDelegate { $0.status == 416 ? .discard : .receive }
    let request = HTTPRequest(url: nginx.url("/a.bin"), headers: ["Range": "bytes=5000-"])
    let head = try await factory.make().perform(request, delegate: delegate)

    #expect(head.status == 416)
    #expect(head.headers["Content-Range"] == "bytes */1000")
    #expect(delegate.partCount == 0)
  }

  @Test(arguments: TransportFactory.all)
  func stopsWhenTheDelegateSaysStopAndStaysUsable(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 1)])
    let transport = factory.make()
    let stopped = RecordingDelegate { _ in .stop }
    let head = try await transport.perform(HTTPRequest(url: nginx.url("/a.bin")), delegate: stopped)

    #expect(head.status == 200)
    #expect(stopped.heads == [head])
    #expect(stopped.partCount == 0)
    let next = RecordingDelegate(keepsBody: false)
    _ = try await transport.perform(HTTPRequest(url: nginx.url("/a.bin")), delegate: next)
    #expect(next.byteCount == size)
  }

  /// Request options (headers, a cookie, credentials, a user agent) reach the server as given.
  @Test(arguments: TransportFactory.all)
  func sendsTheRequestsOwnHeaders(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: TestData.bytes(count: 1000, seed: 3))))
    let headers: HTTPHeaders = [
      "User-Agent": "Custom/1", "X-Trace": "abc", "Cookie": "session=s1",
      "Authorization": "Bearer t0ken", "Referer": "http://example.com/page",
    ]
    _ = try await factory.make().perform(
      HTTPRequest(url: server.url("/a.bin"), headers: headers), delegate: RecordingDelegate())

    let sent = try #require(server.requests(for: "/a.bin").first)
    #expect(sent.headers["user-agent"] == "Custom/1")
    #expect(sent.headers["x-trace"] == "abc")
    #expect(sent.headers["cookie"] == "session=s1")
    #expect(sent.headers["authorization"] == "Bearer t0ken")
    #expect(sent.headers["referer"] == "http://example.com/page")
    #expect(sent.headers["accept-encoding"] == "identity")
  }

  @Test(arguments: TransportFactory.all)
  func sendsAHeadRequestAndGetsNoBody(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 1)])
    let delegate = RecordingDelegate()
    let head = try await factory.make().perform(
      HTTPRequest(url: nginx.url("/a.bin"), method: .head), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.contentLength == Int64(size))
    #expect(delegate.partCount == 0)
    #expect(try await nginx.server.accessLog(minimumCount: 1).first?.method == "HEAD")
  }
}
