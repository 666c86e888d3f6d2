import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// The typed errors `CurlTransport` throws when no complete response arrives, beyond those
/// every transport throws alike (`ConformanceFailureTests`).
@Suite(.timed) struct CurlTransportFailureTests {
  /// The host is in `.invalid` (RFC 6761), and its first label is longer than DNS allows
  /// (63 bytes): the resolver rejects it while building the query, so not even a DNS packet
  /// leaves the machine. (A plain `nonexistent.invalid` is sent to the configured name server
  /// unless a local resolver answers `.invalid` itself.)
  @Test func reportsAHostThatDoesNotResolve() async throws {
    let label = String(repeating: "x", count: 64)
    let url = try #require(URL(string: "http://\(label).invalid/a.bin"))
    let error = await CurlTransport().failure(of: url)

    #expect(error?.kind == .cannotResolveHost)
    #expect(error?.isTransient == true)
  }

  @Test func keepsTokensOutOfErrorMessages() async throws {
    let port = try FreePort.make()
    let url = try #require(URL(string: "http://user:secret@127.0.0.1:\(port)/a.bin?token=s3cr3t"))
    let error = try #require(await CurlTransport().failure(of: url))

    #expect(error.kind == .cannotConnect)
    #expect(!error.description.contains("secret"))
    #expect(!error.description.contains("s3cr3t"))
  }
}
