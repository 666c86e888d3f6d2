import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct FaultServerTests {
  let body = TestData.bytes(count: 300_000, seed: 6)

  @Test func servesAResourceWithItsHeaders() async throws {
    let server = try FaultServer()
    server.setRoute(
      "/a.bin", .resource(.init(body: body, lastModified: "Tue, 01 Jul 2025 00:00:00 GMT")))
    let result = try await Curl.fetch(server.url("/a.bin?token=1"))
    #expect(result.exitCode == 0)
    #expect(result.status == 200)
    #expect(result.headers["etag"] == "\"v1\"")
    #expect(result.headers["last-modified"] == "Tue, 01 Jul 2025 00:00:00 GMT")
    #expect(result.headers["accept-ranges"] == "bytes")
    #expect(result.headers["content-length"] == "\(body.count)")
    #expect(try await TestData.sha256Hex(of: result.body) == TestData.sha256Hex(of: body))
  }

  @Test func answersRangesWith206() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let closed = try await Curl.fetch(server.url("/a.bin"), ["-r", "100-199"])
    #expect(closed.status == 206)
    #expect(closed.headers["content-range"] == "bytes 100-199/\(body.count)")
    #expect(closed.body == body[100..<200])

    let open = try await Curl.fetch(server.url("/a.bin"), ["-r", "299990-"])
    #expect(open.headers["content-range"] == "bytes 299990-299999/\(body.count)")
    #expect(open.body == body.suffix(10))

    let suffix = try await Curl.fetch(server.url("/a.bin"), ["-r", "-5"])
    #expect(suffix.body == body.suffix(5))
  }

  @Test func honoursIfRange() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let matching = try await Curl.fetch(
      server.url("/a.bin"), ["-r", "10-", "-H", "If-Range: \"v1\""])
    #expect(matching.status == 206)
    let stale = try await Curl.fetch(server.url("/a.bin"), ["-r", "10-", "-H", "If-Range: \"v0\""])
    #expect(stale.status == 200)
    #expect(stale.body == body)
    let weak = try await Curl.fetch(
      server.url("/a.bin"), ["-r", "10-", "-H", "If-Range: W/\"v1\""])
    #expect(weak.status == 200)
  }

  @Test func answersUnsatisfiableRangesWith416() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let result = try await Curl.fetch(server.url("/a.bin"), ["-r", "\(body.count)-"])
    #expect(result.status == 416)
    #expect(result.headers["content-range"] == "bytes */\(body.count)")
  }

  @Test func ignoresRangesWhenNotAccepted() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body, etag: nil, acceptsRanges: false)))
    let result = try await Curl.fetch(server.url("/a.bin"), ["-r", "0-9"])
    #expect(result.status == 200)
    #expect(result.body == body)
    #expect(result.headers["accept-ranges"] == nil)
    #expect(result.headers["etag"] == nil)
  }

  @Test func answersHeadWithoutABody() async throws {
    let server = try FaultServer()
    server.setRoute("/a.bin", .resource(.init(body: body)))
    let result = try await Curl.fetch(server.url("/a.bin"), ["-I"])
    #expect(result.exitCode == 0)
    #expect(result.headers["content-length"] == "\(body.count)")
    #expect(server.requests.map(\.method) == ["HEAD"])
  }

  @Test func recordsRequestsAndKeepsConnectionsAlive() async throws {
    let server = try FaultServer()
    server.setRoute("/a", .status(code: 204))
    let url = server.url("/a?q=1").absoluteString
    let result = try await Curl.fetch(
      server.url("/missing"), ["-v", "-H", "X-Test: yes", url, url])
    #expect(result.status == 404)
    #expect(result.stderr.contains("Re-using existing connection"))
    #expect(server.requests.map(\.path) == ["/a?q=1", "/a?q=1", "/missing"])
    #expect(server.requests(for: "/a").count == 2)
    #expect(server.requests[0].headers["x-test"] == "yes")
    #expect(server.requests[0].headers["host"] == "127.0.0.1:\(server.port)")
  }

  @Test func answersUnknownPathsWith404() async throws {
    let server = try FaultServer()
    #expect(try await Curl.fetch(server.url("/nothing")).status == 404)
  }

  @Test func redirectsWithALocation() async throws {
    let server = try FaultServer()
    server.setRoute("/old", .redirect(location: "ftp://example.invalid/x"))
    server.setRoute("/moved", .redirect(code: 301, location: "/a"))
    server.setRoute("/a", .status(code: 200, body: Data("hi".utf8)))
    let result = try await Curl.fetch(server.url("/old"))
    #expect(result.status == 302)
    #expect(result.headers["location"] == "ftp://example.invalid/x")
    let followed = try await Curl.fetch(server.url("/moved"), ["-L"])
    #expect(followed.status == 200)
    #expect(followed.body == Data("hi".utf8))
  }

  @Test func playsASequenceAndRepeatsItsLastElement() async throws {
    let server = try FaultServer()
    let fail = FaultServer.Behaviour.status(code: 503, headers: [("Retry-After", "1")])
    server.setRoute("/a.bin", .sequence([fail, fail, .resource(.init(body: body))]))
    let statuses = try await (0..<4).asyncMap { _ in
      try await Curl.fetch(server.url("/a.bin")).status
    }
    #expect(statuses == [503, 503, 200, 200])
    server.setRoute("/a.bin", .sequence([fail, .resource(.init(body: body))]))
    #expect(try await Curl.fetch(server.url("/a.bin")).headers["retry-after"] == "1")
  }

  @Test func servesALargeBodyInFull() async throws {
    let server = try FaultServer()
    let large = TestData.bytes(count: 16 << 20, seed: 8)
    server.setRoute("/large", .resource(.init(body: large)))
    let output = try await ProcessRunner.run(
      "/usr/bin/curl",
      ["-sS", "-o", "/dev/null", "-w", "%{size_download}", server.url("/large").absoluteString])
    #expect(output.status == 0)
    #expect(output.stdoutText == "\(16 << 20)")
  }
}
