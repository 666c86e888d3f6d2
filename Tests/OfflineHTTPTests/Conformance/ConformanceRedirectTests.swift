import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Redirects every transport follows and refuses (RFC 9110 §15.4), decided by
/// ``RedirectPolicy`` whatever the transport (issue 18, item 1).
@Suite(.timed) struct ConformanceRedirectTests {
  let body = TestData.bytes(count: 50_000, seed: 5)

  @Test(arguments: TransportFactory.all)
  func followsAChainOfRelativeRedirects(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a/start", .redirect(location: "next"))
    server.setRoute("/a/next", .redirect(code: 301, location: "../b/last?x=1"))
    server.setRoute("/b/last", .redirect(code: 307, location: "/c/file.bin"))
    server.setRoute("/c/file.bin", .resource(.init(body: body)))
    let delegate = RecordingDelegate()
    let head = try await factory.make().perform(
      HTTPRequest(url: server.url("/a/start")), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.url == server.url("/c/file.bin"))
    #expect(delegate.heads.count == 1, "redirects are not shown to the delegate")
    #expect(delegate.body == body)
    #expect(server.requests.map(\.path) == ["/a/start", "/a/next", "/b/last?x=1", "/c/file.bin"])
  }

  @Test(arguments: TransportFactory.all)
  func dropsCredentialsOnARedirectToAnotherOriginAndKeepsThemWithinOne(
    _ factory: TransportFactory
  ) async throws {
    let first = try FaultServer()
    let other = try FaultServer()
    defer {
      first.stop()
      other.stop()
    }
    first.setRoute("/start", .redirect(location: "/same"))
    first.setRoute("/same", .redirect(location: other.url("/file.bin").absoluteString))
    other.setRoute("/file.bin", .resource(.init(body: body)))
    let secrets: HTTPHeaders = [
      "Authorization": "Bearer t0ken", "Cookie": "session=s1", "X-Kept": "yes",
    ]
    let delegate = RecordingDelegate()
    let head = try await factory.make().perform(
      HTTPRequest(url: first.url("/start"), headers: secrets), delegate: delegate)

    #expect(head.status == 200)
    #expect(delegate.body == body)
    let same = try #require(first.requests(for: "/same").first)
    #expect(same.headers["authorization"] == "Bearer t0ken", "same origin keeps them")
    #expect(same.headers["cookie"] == "session=s1")
    let away = try #require(other.requests(for: "/file.bin").first)
    #expect(away.headers["authorization"] == nil)
    #expect(away.headers["cookie"] == nil)
    #expect(away.headers["x-kept"] == "yes")
  }

  @Test(arguments: TransportFactory.all)
  func refusesARedirectToFTPOrFile(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    for location in ["ftp://127.0.0.1/x", "file:///etc/passwd"] {
      server.setRoute("/away", .redirect(location: location))
      let delegate = RecordingDelegate()
      let error = await factory.make().failure(of: server.url("/away"), delegate: delegate)

      #expect(error?.kind == .redirectRefused(to: location))
      #expect(error?.url == server.url("/away"))
      #expect(delegate.heads.isEmpty)
    }
  }

  @Test(arguments: TransportFactory.all)
  func refusesARedirectFromHTTPSToHTTP(_ factory: TransportFactory) async throws {
    let plain = try FaultServer()
    defer { plain.stop() }
    plain.setRoute("/x", .resource(.init(body: body)))
    let nginx = try NginxFixture(
      files: [:],
      options: .init(
        tls: true,
        extraLocations: "location = /down { return 302 http://127.0.0.1:\(plain.port)/x; }"))
    let caFile = try #require(nginx.server.certificatePath).path
    let delegate = RecordingDelegate()
    let transport = factory.make(.init(trustedCAFile: caFile))
    let error = await transport.failure(of: nginx.url("/down"), delegate: delegate)

    await factory.expecting(.privateCA) {
      #expect(error?.kind == .redirectRefused(to: "http://127.0.0.1:\(plain.port)/x"))
    }
    #expect(delegate.heads.isEmpty)
    #expect(plain.requests.isEmpty, "the http server must never be asked")
  }

  @Test(arguments: TransportFactory.all)
  func endsARedirectLoopAfterTheLimit(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/loop", .redirect(location: "/loop"))
    let error = await factory.make().failure(of: server.url("/loop"))

    #expect(error?.kind == .tooManyRedirects(10))
    #expect(server.requests(for: "/loop").count == 11)
  }

  @Test(arguments: TransportFactory.all)
  func followsNoRedirectsWhenTheLimitIsZero(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/moved", .redirect(location: "/a.bin"))
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let transport = factory.make(.init(redirects: .init(maximumCount: 0)))
    let error = await transport.failure(of: server.url("/moved"))

    #expect(error?.kind == .tooManyRedirects(0))
    #expect(server.requests(for: "/a.bin").isEmpty)
  }
}
