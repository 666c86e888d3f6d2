import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// What `CurlTransport` hands back from a plain nginx: heads, bodies, ranges, dispositions.
@Suite(.timed) struct CurlTransportResponseTests {
  let size = (3 << 20) + 123

  @Test func asksForTheBodyUncompressedWithItsOwnUserAgent() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 1)])
    _ = try await CurlTransport().perform(
      HTTPRequest(url: nginx.url("/a.bin")), delegate: RecordingDelegate())

    let log = try await nginx.server.accessLog(minimumCount: 1)
    #expect(log.count == 1)
    #expect(log.first?.acceptEncoding == "identity")
    #expect(log.first?.userAgent?.hasPrefix("OfflineKit/") == true)
    #expect(log.first?.protocol == "HTTP/1.1")
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
