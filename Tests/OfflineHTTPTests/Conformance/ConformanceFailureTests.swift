import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// The typed errors every transport throws when no complete response arrives, and TLS
/// (issue 18, item 1).
@Suite(.timed) struct ConformanceFailureTests {
  let body = TestData.bytes(count: 200_000, seed: 6)

  @Test(arguments: TransportFactory.all)
  func reportsAConnectionCutAfterTheBytesThatArrived(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 1000))))
    let delegate = RecordingDelegate()
    let error = await factory.make().failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .connectionLost)
    #expect(error?.isTransient == true)
    #expect(delegate.head?.status == 200)
    #expect(delegate.byteCount == 1000)
    #expect(delegate.body == body.prefix(1000))
  }

  @Test(arguments: TransportFactory.all)
  func reportsABodyShorterThanItsContentLength(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: body, faults: .init(declaredExtraLength: 50))))
    let delegate = RecordingDelegate()
    let error = await factory.make().failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .connectionLost)
    #expect(delegate.head?.contentLength == Int64(body.count + 50))
    #expect(delegate.body == body)
  }

  @Test(arguments: TransportFactory.all)
  func reportsAStallAfterTheStallTimeout(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }  // ends the 10 s pause
    let faults = FaultServer.Faults(stallAfterBodyBytes: 1000, stallSeconds: 10)
    server.setRoute("/a.bin", .resource(.init(body: body, faults: faults)))
    let transport = factory.make(.init(stallTimeout: .seconds(1)))
    let delegate = RecordingDelegate()
    let error = await transport.failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .stalled)
    #expect(error?.isTransient == true)
    #expect(delegate.body == body.prefix(1000))
  }

  @Test(arguments: TransportFactory.all)
  func reportsARefusedConnection(_ factory: TransportFactory) async throws {
    let port = try FreePort.make()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/a.bin"))
    let delegate = RecordingDelegate()
    let error = await factory.make().failure(of: url, delegate: delegate)

    #expect(error?.kind == .cannotConnect)
    #expect(error?.isTransient == true)
    #expect(error?.url == url)
    #expect(delegate.heads.isEmpty)
  }

  @Test(arguments: TransportFactory.all)
  func refusesAnFTPURLBeforeAnyIO(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let url = try #require(URL(string: "ftp://127.0.0.1:\(server.port)/a.bin"))
    let delegate = RecordingDelegate()
    let error = await factory.make().failure(of: url, delegate: delegate)

    #expect(error?.kind == .unsupportedScheme("ftp"))
    #expect(error?.curlCode == nil, "libcurl never saw the request")
    #expect(delegate.heads.isEmpty)
    #expect(server.requests.isEmpty)
  }

  @Test(arguments: TransportFactory.all)
  func passesOnTheErrorTheDelegateThrew(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let failure = RecordingDelegate.Failure(reason: "disk full")
    let delegate = RecordingDelegate(failure: failure)
    let error = await factory.make().failure(of: server.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .delegateFailed)
    #expect(error?.underlying as? RecordingDelegate.Failure == failure)
    #expect(error?.description.contains("disk full") == true)
    #expect(delegate.byteCount == 0)
  }

  @Test(arguments: TransportFactory.all)
  func refusesACertificateFromAnUntrustedCA(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1000, 4)], options: .init(tls: true))
    let delegate = RecordingDelegate()
    let error = await factory.make().failure(of: nginx.url("/a.bin"), delegate: delegate)

    #expect(error?.kind == .tlsFailure)
    #expect(error?.isTransient == false)
    #expect(delegate.heads.isEmpty)
    #expect(try nginx.server.accessLog().filter { $0.status == 200 }.isEmpty)
  }

  /// A private CA given as a file is trusted; where offered (nginx over TLS), HTTP/2 is used.
  @Test(arguments: TransportFactory.all)
  func trustsAPrivateCAFileAndSpeaksHTTP2WhereOffered(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (1 << 20, 4)], options: .init(tls: true))
    let caFile = try #require(nginx.server.certificatePath).path
    let transport = factory.make(.init(trustedCAFile: caFile))
    let delegate = RecordingDelegate()

    await factory.expecting(.privateCA) {
      let head = try await transport.perform(
        HTTPRequest(url: nginx.url("/a.bin")), delegate: delegate)
      #expect(head.status == 200)
      #expect(delegate.body == TestData.bytes(count: 1 << 20, seed: 4))
      let log = try await nginx.server.accessLog(minimumCount: 1)
      #expect(log.map(\.protocol) == ["HTTP/2.0"])
    }
  }
}
