import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// Issue 16, item 6: hostile requests get 4xx and touch nothing.
@Suite("offline serve refuses hostile requests", .serialized, .timed)
struct ServeSecurityTests {
  // Pins: DNS rebinding. A page on evil.example that rebinds its name to 127.0.0.1 sends
  // `Host: evil.example`; the service must not answer it.
  @Test func refusesARequestWhoseHostIsNotTheListeningAddress() async throws {
    let fixture = try await ServiceFixture()
    let foreign = try await Curl.fetch(
      fixture.url("/content/x/a.bin"), ["-H", "Host: evil.example:\(fixture.port)"])
    #expect(foreign.status == 403)
    let local = try await Curl.fetch(
      fixture.url("/content/x/a.bin"), ["-H", "Host: localhost:\(fixture.port)"])
    #expect(local.status == 404)
    await fixture.close()
  }

  // Pins: a token, once set, is checked on every request; a browser gets it as a cookie
  // by opening the printed link once.
  @Test func requiresTheTokenOnEveryRequestOnceOneIsSet() async throws {
    let token = "test-token-0123456789abcdef"
    let fixture = try await ServiceFixture(configuration: .init(token: token))
    let path = fixture.url("/content/x/a.bin")
    #expect(try await Curl.fetch(path).status == 401)
    #expect(
      try await Curl.fetch(path, ["-H", "Authorization: Bearer wrong-token-0123456789"]).status
        == 401)
    #expect(try await Curl.fetch(path, ["-H", "Authorization: Bearer \(token)"]).status == 404)
    #expect(try await Curl.fetch(path, ["-b", "offline_token=wrong"]).status == 401)
    let link = try await Curl.fetch(fixture.url("/?token=\(token)"))
    #expect(link.status == 303)
    #expect(link.headers["set-cookie"]?.hasPrefix("offline_token=\(token);") == true)
    #expect(link.headers["set-cookie"]?.contains("HttpOnly") == true)
    #expect(try await Curl.fetch(path, ["-b", "offline_token=\(token)"]).status == 404)
    #expect(try await Curl.fetch(fixture.url("/?token=guess-0123456789abcdef")).status == 401)
    await fixture.close()
  }

  // Pins: CSRF. A form on another site POSTing to the service must not start a download.
  @Test func refusesCrossSitePostsAndAddsNothing() async throws {
    let fixture = try await ServiceFixture()
    let body = #"{"urls":["\#(fixture.nginx.url("/a.bin").absoluteString)"]}"#
    let crossOrigin = try await Curl.fetch(
      fixture.url("/api/contents"),
      [
        "-X", "POST", "-H", "Origin: http://evil.example", "-H", "Content-Type: application/json",
        "--data-binary", body,
      ])
    #expect(crossOrigin.status == 403)
    let crossSite = try await Curl.fetch(
      fixture.url("/api/contents"),
      [
        "-X", "POST", "-H", "Sec-Fetch-Site: cross-site", "-H", "Content-Type: application/json",
        "--data-binary", body,
      ])
    #expect(crossSite.status == 403)
    let form = try await Curl.fetch(
      fixture.url("/api/contents"),
      [
        "-X", "POST", "-H", "Content-Type: application/x-www-form-urlencoded", "--data-binary",
        body,
      ])
    #expect(form.status == 403)
    #expect(try await fixture.manager.snapshots().isEmpty)
    await fixture.close()
  }

  // Pins: a 1 GB body must be refused from its headers, not read into memory.
  @Test func refusesAHugeBodyFromItsHeaders() async throws {
    let fixture = try await ServiceFixture()
    #expect(try await Hostile.run("body", port: fixture.port, 1 << 30) == "status=413")
    #expect(try await Curl.fetch(fixture.url("/content/x/")).status == 404)  // still up
    #expect(try await fixture.manager.snapshots().isEmpty)
    await fixture.close()
  }

  // Pins: 10,000 idle connections held open must not take the service down or lock out
  // the next real client (one thread per connection would).
  @Test func answersTheNextRequestWhileTenThousandIdleConnectionsAreHeld() async throws {
    let fixture = try await ServiceFixture()
    let result = try await Hostile.run("idle", port: fixture.port, 10_000, timeout: 90)
    #expect(result.hasSuffix("status=404"), "\(result)")
    let open = Int(result.split(separator: " ").first?.dropFirst("open=".count) ?? "") ?? 0
    #expect(open > 5_000, "the idle connections were dropped, not held: \(result)")
    #expect(try await Curl.fetch(fixture.url("/content/x/")).status == 404)
    await fixture.close()
  }

  // Pins: path traversal. No spelling of `../` (encoded, double-encoded, backslashes, NUL)
  // reaches a file outside the content's folder, and hidden files stay hidden.
  @Test func servesNothingOutsideTheContentsFolderWhateverThePath() async throws {
    let fixture = try await ServiceFixture()
    let id = try await fixture.download("a.bin", count: 1000)
    try Data("secret".utf8).write(to: fixture.store.file("secret.txt"))
    let base = "/content/\(id)/"
    let paths = [
      "../../secret.txt", "..%2f..%2fsecret.txt", "%2e%2e/%2e%2e/secret.txt",
      "%2e%2e%2f%2e%2e%2fsecret.txt", "%252e%252e%252f%252e%252e%252fsecret.txt",
      "..%5c..%5csecret.txt", "..\\..\\secret.txt", "a.bin%00/../../../secret.txt",
      "%2fetc%2fpasswd", "/etc/passwd", "./../../secret.txt", ".manifest.json",
      "../../index.sqlite", "..%c0%af..%c0%afsecret.txt",
    ]
    for path in paths {
      let reply = try await Curl.fetch(fixture.url(base + path))
      #expect((400..<500).contains(reply.status), "\(path): \(reply.status)")
      #expect(!reply.text.contains("secret") && !reply.text.contains("root:"), "\(path)")
    }
    #expect(try await Curl.fetch(fixture.url("/content/../secret.txt")).status == 400)
    #expect(try await Curl.fetch(fixture.url(base + "a.bin")).status == 200)
    await fixture.close()
  }

  // Pins: keep-alive, HEAD and concurrent clients work (players open many requests).
  @Test func keepsConnectionsAliveAnswersHeadAndServesClientsAtOnce() async throws {
    let fixture = try await ServiceFixture()
    let id = try await fixture.download("a.bin", count: 100_000)
    let url = fixture.url("/content/\(id)/a.bin")
    let twice = try await ProcessRunner.run(
      "/usr/bin/curl",
      ["-s", "-o", "/dev/null", "-w", "%{num_connects}\n", url, "-o", "/dev/null", url])
    #expect(twice.stdoutText == "1\n0\n")
    let head = try await Curl.fetch(url, ["-I"])
    #expect(head.status == 200)
    #expect(head.headers["content-length"] == "100000")
    // A HEAD answered with a body would garble the next response on the same connection.
    let scratch = try TemporaryDirectory(prefix: "offlinekit-head")
    let headThenGet = try await ProcessRunner.run(
      "/usr/bin/curl",
      [
        "-s", "-I", "-o", "/dev/null", "-w", "%{http_code} %{num_connects}\n", url, "--next",
        "-s", "-o", scratch.file("body").path, "-w", "%{http_code} %{num_connects}\n", url,
      ])
    #expect(headThenGet.stdoutText == "200 1\n200 0\n")
    #expect(
      try Data(contentsOf: scratch.file("body")) == Data(contentsOf: fixture.origin.file("a.bin")))
    var arguments = ["-s", "--parallel", "--parallel-max", "8", "-w", "%{http_code}\n"]
    for index in 0..<16 {
      arguments += ["-r", "\(index * 1000)-\(index * 1000 + 999)", "-o", "/dev/null", url]
    }
    let parallel = try await ProcessRunner.run("/usr/bin/curl", arguments, timeout: 30)
    #expect(parallel.stdoutText.split(separator: "\n") == Array(repeating: "206", count: 16))
    await fixture.close()
  }
}
