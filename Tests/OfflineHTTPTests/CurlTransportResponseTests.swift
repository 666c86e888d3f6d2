import Foundation
import OfflineHTTP
import TestSupport
import Testing

/// What `CurlTransport` hands back from a plain nginx: heads, bodies, ranges, dispositions.
@Suite struct CurlTransportResponseTests {
  let size = (3 << 20) + 123

  @Test func downloadsAFileByteForByteOverHTTP11() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 1)])
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: nginx.url("/a.bin")), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.version == "HTTP/1.1")
    #expect(head.contentLength == Int64(size))
    #expect(head.url == nginx.url("/a.bin"))
    #expect(delegate.heads == [head])
    #expect(delegate.byteCount == size)
    let expected = try TestData.sha256Hex(of: nginx.root.file("a.bin"))
    #expect(try TestData.sha256Hex(of: delegate.body) == expected)
  }

  @Test func asksForTheBodyUncompressedWithItsOwnUserAgent() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 1)])
    _ = try await CurlTransport().perform(
      HTTPRequest(url: nginx.url("/a.bin")), delegate: RecordingDelegate())

    let log = try nginx.server.accessLog(minimumCount: 1)
    #expect(log.count == 1)
    #expect(log.first?.acceptEncoding == "identity")
    #expect(log.first?.userAgent?.hasPrefix("OfflineKit/") == true)
    #expect(log.first?.protocol == "HTTP/1.1")
  }

  @Test func returnsA404AsAResponseNotAnError() async throws {
    let nginx = try NginxFixture(files: [:])
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: nginx.url("/missing.bin")), delegate: delegate)

    #expect(head.status == 404)
    #expect(delegate.heads == [head])
  }

  @Test func answersARangeWith206AndExactlyThoseBytes() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 2)])
    let delegate = RecordingDelegate()
    let request = HTTPRequest(url: nginx.url("/a.bin"), headers: ["Range": "bytes=1000-1999"])
    let head = try await CurlTransport().perform(request, delegate: delegate)

    #expect(head.status == 206)
    #expect(head.headers["Content-Range"] == "bytes 1000-1999/\(size)")
    #expect(delegate.body == TestData.bytes(count: 2000, seed: 2).suffix(from: 1000))
  }

  @Test func discardsTheBodyOfA416WhenTheDelegateSaysSo() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 1)])
    let delegate = RecordingDelegate { $0.status == 416 ? .discard : .receive }
    let request = HTTPRequest(url: nginx.url("/a.bin"), headers: ["Range": "bytes=5000-"])
    let head = try await CurlTransport().perform(request, delegate: delegate)

    #expect(head.status == 416)
    #expect((head.contentLength ?? 0) > 0, "nginx sends a body that must be dropped")
    #expect(delegate.partCount == 0)
  }

  @Test func stopsWhenTheDelegateSaysStopAndReturnsTheHead() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 1)])
    let transport = CurlTransport()
    let stopped = RecordingDelegate { _ in .stop }
    let head = try await transport.perform(HTTPRequest(url: nginx.url("/a.bin")), delegate: stopped)

    #expect(head.status == 200)
    #expect(stopped.heads == [head])
    #expect(stopped.partCount == 0)

    // The transport is still good for the next request.
    let next = RecordingDelegate(keepsBody: false)
    _ = try await transport.perform(HTTPRequest(url: nginx.url("/a.bin")), delegate: next)
    #expect(next.byteCount == size)
  }

  @Test func sendsTheRequestsOwnHeaders() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let body = TestData.bytes(count: 10_000, seed: 3)
    server.setRoute("/a.bin", .resource(.init(body: body, etag: "\"v1\"")))
    let headers: HTTPHeaders = [
      "Range": "bytes=100-", "If-Range": "\"v1\"", "User-Agent": "Custom/1", "X-Trace": "abc",
    ]
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: server.url("/a.bin"), headers: headers), delegate: delegate)

    #expect(head.status == 206)
    #expect(delegate.body == body.suffix(from: 100))
    let sent = server.requests(for: "/a.bin")
    #expect(sent.count == 1)
    #expect(sent.first?.headers["if-range"] == "\"v1\"")
    #expect(sent.first?.headers["range"] == "bytes=100-")
    #expect(sent.first?.headers["user-agent"] == "Custom/1")
    #expect(sent.first?.headers["x-trace"] == "abc")
    #expect(sent.first?.headers["accept-encoding"] == "identity")
  }

  @Test func readsHeaderFieldsWithoutTheWhiteSpaceAroundThemAndWhateverTheirCase() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/a.bin",
      .status(code: 200, headers: [("X-Padded", " \t spaced  value\t "), ("ETAG", "\"v7\"")]))
    let head = try await CurlTransport().perform(
      HTTPRequest(url: server.url("/a.bin")), delegate: RecordingDelegate())
    #expect(head.headers["x-padded"] == "spaced  value")
    #expect(head.headers["ETag"] == "\"v7\"")
  }

  @Test func sendsAHeadRequestAndGetsNoBody() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (size, 1)])
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: nginx.url("/a.bin"), method: .head), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.contentLength == Int64(size))
    #expect(delegate.partCount == 0)
    #expect(try nginx.server.accessLog(minimumCount: 1).first?.method == "HEAD")
  }

  @Test func returnsA204WithNoBodyParts() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/empty", .status(code: 204))
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: server.url("/empty")), delegate: delegate)

    #expect(head.status == 204)
    #expect(delegate.partCount == 0)
  }

  /// Pins a bug: a field with an empty value (valid, RFC 9110 §5.5) is passed to libcurl as
  /// `Name: `, which libcurl reads as "remove this header", so it is never sent. libcurl sends
  /// an empty value when written `Name;`.
  @Test func sendsAHeaderWithAnEmptyValue() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/empty", .status(code: 204))
    let request = HTTPRequest(url: server.url("/empty"), headers: ["X-Empty": ""])
    _ = try await CurlTransport().perform(request, delegate: RecordingDelegate())

    #expect(server.requests(for: "/empty").first?.headers["x-empty"] == "")
  }
}
