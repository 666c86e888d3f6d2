import Foundation
import TestSupport
import TestTiming
import Testing

/// `get`, `add`, `info` and `cache get` take curl's request options (issue 13, item 1), end
/// to end through `offline` (in-process) against nginx folders behind a check. Each pins that
/// the options did not exist ("Unknown option", exit 64) or were not sent. The password
/// asked for on a terminal is in `RealTerminalTests`.
@Suite(.ownThreads, .timed) struct GetRequestOptionTests {
  static let body = TestData.bytes(count: 200_000, seed: 41)

  struct Setup {
    let origin: GatedOrigin
    let folder: TemporaryDirectory

    init() async throws {
      origin = try await GatedOrigin(files: ["a.bin": GetRequestOptionTests.body])
      folder = try TemporaryDirectory()
    }

    var store: String { folder.url.appending(path: "store").path }
    var output: String { folder.url.appending(path: "a.bin").path }
    var downloaded: Bool {
      FileManager.default.contents(atPath: output) == GetRequestOptionTests.body
    }

    /// `offline get` of `a.bin` in `gate`, with `arguments`.
    func get(_ gate: String, _ arguments: [String]) async throws -> OfflineRun {
      try await InProcessOffline.run(
        ["--store", store, "get", origin.fileURL("a.bin", in: gate).absoluteString, "-o", output]
          + arguments, timeout: 60)
    }

    /// `offline ARGUMENTS` on the store.
    func offline(_ arguments: [String]) async throws -> OfflineRun {
      try await InProcessOffline.run(["--store", store] + arguments, timeout: 60)
    }
  }

  @Test func getWithABearerHeaderDownloadsAndNeverPrintsTheToken() async throws {
    let setup = try await Setup()
    let refused = try await setup.get("bearer", ["--json"])
    #expect(refused.status == 1)
    let result = try await setup.get(
      "bearer", ["-H", "Authorization: Bearer \(NginxGates.token)", "--json"])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
    #expect(!(result.stdoutText + result.stderrText).contains(NginxGates.token))
  }

  @Test func getWithACookiesFileDownloads() async throws {
    let setup = try await Setup()
    let cookies = try setup.origin.cookiesFile()
    let result = try await setup.get("cookie", ["--cookies", cookies.path])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
  }

  @Test func getWithUserAndPasswordDownloads() async throws {
    let setup = try await Setup()
    let result = try await setup.get("basic", ["-u", "\(NginxGates.user):\(NginxGates.password)"])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
  }

  @Test func getWithANetrcFileDownloads() async throws {
    let setup = try await Setup()
    let result = try await setup.get("basic", ["--netrc-file", try setup.origin.netrcFile().path])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
  }

  @Test func getWithARefererAndAUserAgentDownloads() async throws {
    let setup = try await Setup()
    let result = try await setup.get(
      "referer", ["--referer", NginxGates.referer, "--user-agent", "Player/3"])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(try await setup.origin.server.accessLog(minimumCount: 1).last?.userAgent == "Player/3")
  }

  @Test func cacheGetSendsTheHeader() async throws {
    let setup = try await Setup()
    let result = try await setup.offline([
      "cache", "get", setup.origin.fileURL("a.bin", in: "header").absoluteString, "-H",
      "\(NginxGates.headerName): \(NginxGates.headerValue)",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let path = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(FileManager.default.contents(atPath: path) == GetRequestOptionTests.body)
  }

  /// Pins: the token went along a redirect to another origin.
  @Test func aRedirectToAnotherOriginDoesNotReceiveTheToken() async throws {
    let other = try await GatedOrigin(files: ["a.bin": GetRequestOptionTests.body])
    let origin = try await GatedOrigin(
      files: ["a.bin": GetRequestOptionTests.body],
      extraLocations:
        "location = /bearer/away { return 302 \(other.fileURL("a.bin", in: "open").absoluteString); }"
    )
    let folder = try TemporaryDirectory()
    let result = try await InProcessOffline.run(
      [
        "--store", folder.url.appending(path: "store").path, "get",
        origin.url("/bearer/away").absoluteString, "-o", folder.file("a.bin").path,
        "-H", "Authorization: Bearer \(NginxGates.token)",
        "-H", "X-Plain: visible",
      ], timeout: 60)
    #expect(result.status == 0, "\(result.stderrText)")
    let landed = try await other.server.headerLog(minimumCount: 1)
    #expect(!landed.isEmpty)
    #expect(landed.allSatisfy { $0["Authorization"] == nil })
    #expect(landed.allSatisfy { $0["X-Plain"] == "visible" })
  }

  @Test(arguments: [
    (["-H", "NoColon"], "-H", "needs a colon"),
    // Pins: a header without a colon was repeated in the message, a token pasted alone too.
    (["-H", "Bearer pa55-s3cret"], "-H", "needs a colon"),
    (["-H", "X-A: one\r\nX-B: two"], "-H", "line break"),
    (["-H", ": value"], "-H", "needs a name"),
    (["--user", ":pa55-s3cret"], "--user", "user name is empty"),
    (["--user", "ana"], "--user", "no terminal"),
    (["--cookies", "/nonexistent/cookies.txt"], "--cookies", "cannot read"),
    (["--netrc-file", "/nonexistent/netrc"], "--netrc-file", "cannot read"),
  ])
  func badRequestOptionsAreUsageErrorsNamingTheOption(
    arguments: [String], option: String, why: String
  ) async throws {
    let setup = try await Setup()
    let result = try await setup.get("open", arguments)
    #expect(result.status == 64, "\(result.stderrText)")
    #expect(result.stderrText.contains("\(option): "), "\(result.stderrText)")
    #expect(result.stderrText.contains(why), "\(result.stderrText)")
    #expect(!result.stderrText.contains("pa55-s3cret"))
    #expect(!result.stderrText.contains("X-B: two"))
    #expect(try setup.origin.server.accessLog().isEmpty, "nothing was requested")
  }

  @Test func aMalformedCookiesFileIsAUsageErrorNamingTheLineAndAddQueuesNothing() async throws {
    let setup = try await Setup()
    let cookies = setup.origin.secrets.file("bad.txt")
    try Data("# ok\n\n127.0.0.1\tFALSE\t/\n".utf8).write(to: cookies)
    let result = try await setup.offline([
      "add", setup.origin.fileURL("a.bin", in: "open").absoluteString, "--cookies", cookies.path,
    ])
    #expect(result.status == 64, "\(result.stderrText)")
    #expect(result.stderrText.contains("line 3"), "\(result.stderrText)")
    let listed = try await setup.offline(["ls", "--json"])
    #expect(!listed.stdoutText.contains("a.bin"), "\(listed.stdoutText)")
  }

  @Test func theHelpOfEachCommandListsTheRequestOptions() async throws {
    for command in [["get"], ["add"], ["info"], ["cache", "get"]] {
      let help = try await InProcessOffline.run(command + ["--help"])
      #expect(help.status == 0)
      for option in ["--header", "--cookies", "--user", "--netrc-file", "--location-trusted"] {
        #expect(help.stdoutText.contains(option), "\(command) --help lacks \(option)")
      }
    }
  }
}
