import Foundation
import OfflineHTTP
import TestSupport
import Testing

/// The typed errors `CurlTransport` throws when no complete response arrives.
@Suite struct CurlTransportFailureTests {
  let body = TestData.bytes(count: 200_000, seed: 6)

  @Test func reportsAConnectionCutAfterTheBytesThatArrived() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 1000))))
    let delegate = RecordingDelegate()
    let error = await CurlTransport().failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .connectionLost)
    #expect(error?.isTransient == true)
    #expect(delegate.head?.status == 200)
    #expect(delegate.byteCount == 1000)
    #expect(delegate.body == body.prefix(1000))
  }

  @Test func reportsABodyShorterThanItsContentLength() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(declaredExtraLength: 50))))
    let delegate = RecordingDelegate()
    let error = await CurlTransport().failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .connectionLost)
    #expect(delegate.head?.contentLength == Int64(body.count + 50))
    #expect(delegate.body == body)
  }

  @Test func reportsAStallAfterTheStallTimeout() async throws {
    let server = try FaultServer()
    defer { server.stop() }  // ends the 10 s pause
    let faults = FaultServer.Faults(stallAfterBodyBytes: 1000, stallSeconds: 10)
    server.setRoute("/a.bin", .resource(.init(body: body, faults: faults)))
    let transport = CurlTransport(configuration: .init(stallTimeout: .seconds(1)))
    let delegate = RecordingDelegate()
    let error = await transport.failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .stalled)
    #expect(error?.isTransient == true)
    #expect(delegate.body == body.prefix(1000))
  }

  @Test func reportsARefusedConnection() async throws {
    let port = try FreePort.make()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/a.bin"))
    let delegate = RecordingDelegate()
    let error = await CurlTransport().failure(of: url, delegate: delegate)

    #expect(error?.kind == .cannotConnect)
    #expect(error?.url == url)
    #expect(delegate.heads.isEmpty)
  }

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

  @Test func refusesAnFTPURLBeforeAnyIO() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let url = try #require(URL(string: "ftp://127.0.0.1:\(server.port)/a.bin"))
    let delegate = RecordingDelegate()
    let error = await CurlTransport().failure(of: url, delegate: delegate)

    #expect(error?.kind == .unsupportedScheme("ftp"))
    #expect(error?.curlCode == nil, "libcurl never saw the request")
    #expect(delegate.heads.isEmpty)
    #expect(server.requests.isEmpty)
  }

  @Test func passesOnTheErrorTheDelegateThrew() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let failure = RecordingDelegate.Failure(reason: "disk full")
    let delegate = RecordingDelegate(failure: failure)
    let error = await CurlTransport().failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .delegateFailed)
    #expect(error?.underlying as? RecordingDelegate.Failure == failure)
    #expect(error?.description.contains("disk full") == true)
    #expect(delegate.byteCount == 0)
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
