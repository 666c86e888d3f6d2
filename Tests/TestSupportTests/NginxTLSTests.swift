import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct NginxTLSTests {
  @Test func servesHTTPSWithATrustableCertificateAndHTTP2() async throws {
    let root = try TemporaryDirectory()
    try TestData.writeFile(at: root.file("a.bin"), count: 100_000, seed: 4)
    let nginx = try NginxServer(root: root.url, options: .init(tls: true))
    try nginx.start()
    let certificate = try #require(nginx.certificatePath)
    #expect(nginx.baseURL.scheme == "https")

    let untrusted = try await Curl.fetch(nginx.url("/a.bin"))
    #expect(untrusted.exitCode == 60)

    let h2 = try await Curl.fetch(nginx.url("/a.bin"), ["--cacert", certificate.path, "--http2"])
    #expect(h2.exitCode == 0)
    #expect(h2.status == 200)
    #expect(h2.body == TestData.bytes(count: 100_000, seed: 4))

    let h1 = try await Curl.fetch(
      nginx.url("/a.bin"), ["--cacert", certificate.path, "--http1.1", "-r", "0-99"])
    #expect(h1.status == 206)

    let localhost = URL(string: "https://localhost:\(nginx.port)/a.bin")!
    #expect(try await Curl.fetch(localhost, ["--cacert", certificate.path]).exitCode == 0)

    let log = try await nginx.accessLog(minimumCount: 3)
    #expect(log.map(\.protocol) == ["HTTP/2.0", "HTTP/1.1", "HTTP/2.0"])
  }
}
