import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// HTTPS against nginx with a private CA: HTTP/2 when trusted, a typed failure when not.
@Suite(.timed) struct CurlTransportTLSTests {
  @Test func speaksHTTP2OverTLSWhenTheCAIsTrusted() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1 << 20, 4)], options: .init(tls: true))
    let caFile = try #require(nginx.server.certificatePath).path
    let transport = CurlTransport(configuration: .init(trustedCAFile: caFile))
    let delegate = RecordingDelegate()
    let head = try await transport.perform(
      HTTPRequest(url: nginx.url("/a.bin")), delegate: delegate)

    #expect(head.status == 200)
    #expect(head.version == "HTTP/2")
    #expect(delegate.body == TestData.bytes(count: 1 << 20, seed: 4))
    let log = try await nginx.server.accessLog(minimumCount: 1)
    #expect(log.map(\.protocol) == ["HTTP/2.0"])
  }

  @Test func usesHTTP11OverTLSWhenHTTP2IsNotAllowed() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 4)], options: .init(tls: true))
    let caFile = try #require(nginx.server.certificatePath).path
    let transport = CurlTransport(configuration: .init(trustedCAFile: caFile, allowsHTTP2: false))
    let head = try await transport.perform(
      HTTPRequest(url: nginx.url("/a.bin")), delegate: RecordingDelegate())

    #expect(head.version == "HTTP/1.1")
    #expect(try await nginx.server.accessLog(minimumCount: 1).map(\.protocol) == ["HTTP/1.1"])
  }

  @Test func refusesACertificateFromAnUntrustedCA() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 4)], options: .init(tls: true))
    let delegate = RecordingDelegate()
    let error = await CurlTransport().failure(of: nginx.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .tlsFailure)
    #expect(error?.isTransient == false)
    #expect(delegate.heads.isEmpty)
    #expect(try nginx.server.accessLog().filter { $0.status == 200 }.isEmpty)
  }
}
