import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct NginxServerTests {
  /// A served directory with `a.bin` (1 MiB) and the server; keep both alive together.
  struct Fixture {
    let root: TemporaryDirectory
    let nginx: NginxServer
    let size = 1 << 20

    init(options: NginxServer.Options = .init()) throws {
      root = try TemporaryDirectory()
      try TestData.writeFile(at: root.file("a.bin"), count: size, seed: 2)
      nginx = try NginxServer(root: root.url, options: options)
      try nginx.start()
    }
  }

  @Test func servesAFileWithItsExactBytes() async throws {
    let fixture = try Fixture()
    let result = try await Curl.fetch(fixture.nginx.url("/a.bin"))
    #expect(result.exitCode == 0)
    #expect(result.status == 200)
    #expect(result.headers["content-type"] == "application/octet-stream")
    #expect(result.headers["etag"] != nil)
    #expect(
      try await TestData.sha256Hex(of: result.body)
        == TestData.sha256Hex(of: fixture.root.file("a.bin")))
  }

  @Test func answersARangeWith206AndTheRightBytes() async throws {
    let fixture = try Fixture()
    let result = try await Curl.fetch(fixture.nginx.url("/a.bin"), ["-r", "1000-1999"])
    #expect(result.status == 206)
    #expect(result.headers["content-range"] == "bytes 1000-1999/\(fixture.size)")
    #expect(result.body == TestData.bytes(count: 2000, seed: 2).suffix(1000))
  }

  @Test func answersAStaleIfRangeWith200() async throws {
    let fixture = try Fixture()
    let result = try await Curl.fetch(
      fixture.nginx.url("/a.bin"), ["-r", "10-", "-H", "If-Range: \"stale\""])
    #expect(result.status == 200)
    #expect(result.body.count == fixture.size)
  }

  @Test func answersARangePastTheEndWith416() async throws {
    let fixture = try Fixture()
    let result = try await Curl.fetch(fixture.nginx.url("/a.bin"), ["-r", "\(fixture.size)-"])
    #expect(result.status == 416)
    #expect(result.headers["content-range"] == "bytes */\(fixture.size)")
  }

  @Test func ignoresRangesWhenMaxRangesIsZero() async throws {
    let fixture = try Fixture(options: .init(maxRanges: 0, etag: false))
    let result = try await Curl.fetch(fixture.nginx.url("/a.bin"), ["-r", "0-9"])
    #expect(result.status == 200)
    #expect(result.body.count == fixture.size)
    #expect(result.headers["etag"] == nil)
  }

  @Test func servesExtraLocationsVerbatim() async throws {
    let fixture = try Fixture(
      options: .init(extraLocations: "location = /away { return 302 ftp://x/; }"))
    let result = try await Curl.fetch(fixture.nginx.url("/away"))
    #expect(result.status == 302)
    #expect(result.headers["location"] == "ftp://x/")
    #expect(try await Curl.fetch(fixture.nginx.url("/missing")).status == 404)
  }

  @Test func logsTheFieldsTestsCheck() async throws {
    let fixture = try Fixture()
    _ = try await Curl.fetch(
      fixture.nginx.url("/a.bin?x=1"),
      ["-r", "5-9", "-H", "If-Range: \"e\\t1\"", "-A", "kit/1.0", "-H", "Accept-Encoding: gzip"])
    _ = try await Curl.fetch(fixture.nginx.url("/a.bin"), ["-I"])
    let log = try await fixture.nginx.accessLog(minimumCount: 2)
    try #require(log.count == 2)
    #expect(log[0].method == "GET")
    #expect(log[0].uri == "/a.bin?x=1")
    #expect(log[0].status == 200)
    #expect(log[0].bodyBytesSent == Int64(fixture.size))
    #expect(log[0].range == "bytes=5-9")
    #expect(log[0].ifRange == "\"e\\t1\"")
    #expect(log[0].userAgent == "kit/1.0")
    #expect(log[0].acceptEncoding == "gzip")
    #expect(log[0].protocol == "HTTP/1.1")
    #expect(log[1].method == "HEAD")
    #expect(log[1].range == nil)
    #expect(log[1].bodyBytesSent == 0)
  }

  @Test func reportsTheErrorLogWhenNginxCannotStart() throws {
    let root = try TemporaryDirectory()
    let nginx = try NginxServer(root: root.url, options: .init(extraLocations: "bogus;"))
    #expect {
      try nginx.start()
    } throws: { error in
      "\(error)".contains("unknown directive \"bogus\"")
    }
  }

  @Test func stopsAndFreesThePort() throws {
    let fixture = try Fixture()
    let port = fixture.nginx.port
    #expect(Socket.accepts(port: port))
    fixture.nginx.stop()
    #expect(!Socket.accepts(port: port))
    fixture.nginx.stop()
  }
}

@Suite(.timed) struct NginxServerPortTests {
  @Test func retriesWithAnotherPortWhenItsPortWasTaken() async throws {
    let root = try TemporaryDirectory()
    let nginx = try NginxServer(root: root.url)
    let taken = nginx.port
    let squatter = try Socket.bound(port: taken)
    defer { close(squatter) }
    #expect(listen(squatter, 1) == 0)
    try nginx.start()
    #expect(nginx.port != taken)
    #expect(try await Curl.fetch(nginx.url("/missing")).status == 404)
  }
}
