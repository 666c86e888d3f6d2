import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Which redirects `CurlTransport` follows (RFC 9110 §15.4) and which it refuses.
@Suite(.timed) struct CurlTransportRedirectTests {
  let body = TestData.bytes(count: 50_000, seed: 5)

  @Test func followsARedirectFromHTTPToAnotherHTTPServer() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (50_000, 5)])
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/moved", .redirect(location: nginx.url("/a.bin").absoluteString))
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: server.url("/moved")), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.url == nginx.url("/a.bin"))
    #expect(delegate.body == body)
  }
}
