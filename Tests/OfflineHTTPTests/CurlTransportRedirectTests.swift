import Foundation
import OfflineHTTP
import TestSupport
import Testing

/// Which redirects `CurlTransport` follows (RFC 9110 §15.4) and which it refuses.
@Suite struct CurlTransportRedirectTests {
  let body = TestData.bytes(count: 50_000, seed: 5)

  @Test func followsAChainOfRelativeRedirects() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a/start", .redirect(location: "next"))
    server.setRoute("/a/next", .redirect(code: 301, location: "../b/last?x=1"))
    server.setRoute("/b/last", .redirect(code: 307, location: "/c/file.bin"))
    server.setRoute("/c/file.bin", .resource(.init(body: body)))
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: server.url("/a/start")), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.url == server.url("/c/file.bin"))
    #expect(delegate.heads.count == 1, "redirects are not shown to the delegate")
    #expect(delegate.body == body)
    #expect(server.requests.map(\.path) == ["/a/start", "/a/next", "/b/last?x=1", "/c/file.bin"])
  }

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

  @Test(arguments: ["ftp://127.0.0.1/x", "file:///etc/passwd"])
  func refusesARedirectToAnotherScheme(location: String) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/away", .redirect(location: location))
    let delegate = RecordingDelegate()
    let error = await CurlTransport().failure(of: server.url("/away"), delegate: delegate)

    #expect(error?.kind == .redirectRefused(to: location))
    #expect(error?.url == server.url("/away"))
    #expect(delegate.heads.isEmpty)
  }

  @Test func refusesARedirectFromHTTPSToHTTP() async throws {
    let plain = try FaultServer()
    defer { plain.stop() }
    plain.setRoute("/x", .resource(.init(body: body)))
    let nginx = try NginxFixture(
      files: [:],
      options: .init(
        tls: true,
        extraLocations: "location = /down { return 302 http://127.0.0.1:\(plain.port)/x; }"))
    let caFile = try #require(nginx.server.certificatePath).path
    let transport = CurlTransport(configuration: .init(trustedCAFile: caFile))
    let delegate = RecordingDelegate()
    let error = await transport.failure(of: nginx.url("/down"), delegate: delegate)

    #expect(error?.kind == .redirectRefused(to: "http://127.0.0.1:\(plain.port)/x"))
    #expect(error?.isTransient == false)
    #expect(delegate.heads.isEmpty)
    #expect(plain.requests.isEmpty, "the http server must never be asked")
  }

  @Test func endsARedirectLoopAfterTheLimit() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/loop", .redirect(location: "/loop"))
    let error = await CurlTransport().failure(of: server.url("/loop"))

    #expect(error?.kind == .tooManyRedirects(10))
    #expect(server.requests(for: "/loop").count == 11)
  }

  @Test func followsNoRedirectsWhenTheLimitIsZero() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/moved", .redirect(location: "/a.bin"))
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let transport = CurlTransport(configuration: .init(redirects: .init(maximumCount: 0)))
    let error = await transport.failure(of: server.url("/moved"))

    #expect(error?.kind == .tooManyRedirects(0))
    #expect(server.requests(for: "/a.bin").isEmpty)
  }
}
