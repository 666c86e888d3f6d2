import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// `CurlTransport` chooses each URL's proxy itself, from its configuration's environment
/// (never libcurl from the process's), at the start and after every redirect.
@Suite(.timed) struct CurlTransportProxyTests {
  // Pins: a bad proxy variable reached libcurl, which failed each request as "unsupported
  // protocol", read as "did not answer with HTTP" and tried again.
  @Test func aBadProxyVariableFailsTheRequestNamingItAndIsNotTriedAgain() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 4)])
    let transport = CurlTransport(
      configuration: .init(
        environment: CurlEnvironment(["http_proxy": "gopher://u:s3cret@127.0.0.1:70"])))
    let error = await transport.failure(
      of: HTTPRequest(url: nginx.url("/a.bin")), delegate: RecordingDelegate())

    #expect(error.map { if case .invalidProxy = $0.kind { true } else { false } } == true)
    #expect(error?.isTransient == false)
    #expect(error.map { "\($0)".contains("http_proxy") } == true, "\(String(describing: error))")
    #expect(error.map { !"\($0)".contains("s3cret") } == true)
    #expect(try nginx.server.accessLog().isEmpty)
  }

  @Test(.enabled(if: TinyProxy.isInstalled, "needs tinyproxy (scripts/install-deps)"))
  func aRedirectToAHostOutsideNoProxyGoesThroughTheProxy() async throws {
    let via = TinyProxy.viaName
    let nginx = try NginxFixture(
      files: ["a.bin": (64 << 10, 5)],
      options: .init(
        extraLocations: """
          location = /hop { return 302 http://localhost:$server_port/proxied/a.bin; }
          location /proxied/ {
            if ($http_via !~ "\(via)") { return 403; }
            rewrite ^/proxied/(.*)$ /$1 break;
          }
          """))
    let proxy = try TinyProxy()
    try proxy.start()
    let transport = CurlTransport(
      configuration: .init(
        environment: CurlEnvironment([
          "http_proxy": proxy.url.absoluteString, "no_proxy": "127.0.0.1",
        ])))
    let delegate = RecordingDelegate()
    let head = try await transport.perform(HTTPRequest(url: nginx.url("/hop")), delegate: delegate)

    #expect(head.status == 200)
    #expect(delegate.body == TestData.bytes(count: 64 << 10, seed: 5))
    #expect(proxy.requests() == ["GET http://localhost:\(nginx.server.port)/proxied/a.bin"])
    #expect(try await nginx.server.accessLog(minimumCount: 2).map(\.status) == [302, 200])
  }
}
