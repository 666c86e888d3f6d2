import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline cache` as a user runs it: get, ls, stats, limit, clear, help and usage errors.
@Suite(.ownThreads, .timed) struct CacheCommandTests {
  /// nginx serving three files and an empty store.
  final class Fixture {
    let folder: TemporaryDirectory
    let nginx: NginxServer
    var store: URL { folder.url.appending(path: "store") }

    init() throws {
      folder = try TemporaryDirectory(prefix: "offlinekit-cache-cli")
      let www = folder.url.appending(path: "www")
      try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
      for (index, name) in ["a.json", "b.json", "c.json"].enumerated() {
        try TestData.bytes(count: 100_000, seed: UInt64(index + 1)).write(
          to: www.appending(path: name))
      }
      nginx = try NginxServer(root: www)
      try nginx.start()
    }

    func url(_ name: String) -> String { nginx.url("/" + name).absoluteString }

    func offline(_ arguments: [String]) async throws -> OfflineRun {
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 30)
    }
  }

  @Test func getPrintsTheLocalPathAndASecondGetIsAHit() async throws {
    let fixture = try Fixture()
    let first = try await fixture.offline(["cache", "get", fixture.url("a.json")])
    let second = try await fixture.offline(["cache", "get", fixture.url("a.json")])

    #expect(first.status == 0, "\(first.stderrText)")
    let path = first.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(path.hasPrefix(fixture.store.appending(path: "cache").path))
    #expect(!path.contains("//"), "pins: cache paths held cache//")
    #expect(FileManager.default.contents(atPath: path) == TestData.bytes(count: 100_000, seed: 1))
    #expect(second.stdoutText == first.stdoutText)
    #expect(try await fixture.nginx.accessLog(minimumCount: 1).count == 1)
  }

  @Test func getWithOutputCopiesTheFile() async throws {
    let fixture = try Fixture()
    let target = fixture.folder.file("copy.json")
    let result = try await fixture.offline([
      "cache", "get", fixture.url("b.json"), "-o", target.path,
    ])

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stdoutText.isEmpty)
    #expect(
      FileManager.default.contents(atPath: target.path) == TestData.bytes(count: 100_000, seed: 2))
  }

  @Test func lsAndStatsDescribeTheCache() async throws {
    let fixture = try Fixture()
    for name in ["a.json", "b.json"] {
      #expect(try await fixture.offline(["cache", "get", fixture.url(name)]).status == 0)
    }
    let listed = try await fixture.offline(["cache", "ls", "--json"])
    let entries = try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]
    let stats = try await fixture.offline(["cache", "stats", "--json"])
    let summary = try JSONSerialization.jsonObject(with: stats.stdout) as? [String: Any]
    let table = try await fixture.offline(["cache", "ls"])

    #expect(entries?.count == 2)
    #expect(entries?.first?["url"] as? String == fixture.url("b.json"))  // most recent first
    #expect(entries?.first?["size"] as? Int == 100_000)
    #expect(summary?["entries"] as? Int == 2)
    #expect(summary?["bytes"] as? Int == 200_000)
    #expect(summary?["limit"] as? Int == 256 << 20)
    #expect(table.stdoutText.contains("b.json"))
  }

  @Test func limitEvictsAndClearEmpties() async throws {
    let fixture = try Fixture()
    for name in ["a.json", "b.json", "c.json"] {
      #expect(try await fixture.offline(["cache", "get", fixture.url(name)]).status == 0)
    }
    let limit = try await fixture.offline(["cache", "limit", "200K"])
    let afterLimit = try await fixture.offline(["cache", "stats", "--json"])
    let summary = try JSONSerialization.jsonObject(with: afterLimit.stdout) as? [String: Any]

    #expect(limit.status == 0, "\(limit.stderrText)")
    #expect(summary?["limit"] as? Int == 200 << 10)
    #expect(summary?["entries"] as? Int == 1)  // down to 90 % of 200 KiB: one 100 KB file

    let clear = try await fixture.offline(["cache", "clear"])
    let listed = try await fixture.offline(["cache", "ls", "--json"])
    #expect(clear.status == 0)
    #expect(listed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }

  // Pins: after `cache limit 1K` a 1 MB entry stayed ("976.6 KiB of 1.0 KiB").
  @Test func aFileLargerThanTheWholeLimitIsNotKept() async throws {
    let fixture = try Fixture()
    #expect(try await fixture.offline(["cache", "limit", "50K"]).status == 0)
    let get = try await fixture.offline(["cache", "get", fixture.url("a.json")])
    let stats = try await fixture.offline(["cache", "stats", "--json"])
    let summary = try JSONSerialization.jsonObject(with: stats.stdout) as? [String: Any]

    #expect(get.status == 1)
    #expect(get.stderrText.contains("more than the cache's size limit"), "\(get.stderrText)")
    #expect(summary?["entries"] as? Int == 0)
    #expect(summary?["bytes"] as? Int == 0)
  }

  @Test func helpAndUsageErrors() async throws {
    let fixture = try Fixture()
    let help = try await fixture.offline(["cache", "--help"])
    let getHelp = try await fixture.offline(["cache", "get", "--help"])
    let missing = try await fixture.offline(["cache", "get"])
    let badSize = try await fixture.offline(["cache", "limit", "lots"])
    let unknown = try await fixture.offline(["cache", "frobnicate"])

    #expect(help.status == 0)
    #expect(help.stdoutText.contains("SUBCOMMANDS"))
    #expect(!help.stdoutText.contains("bench"))
    #expect(getHelp.stdoutText.contains("--output"))
    #expect(missing.status == 64)
    #expect(missing.stderrText.hasPrefix("Error: Missing URL."))
    #expect(badSize.status == 64)
    #expect(unknown.status == 64)
  }

  @Test func aFailedGetSaysWhyAndExits1() async throws {
    let fixture = try Fixture()
    let result = try await fixture.offline(["cache", "get", fixture.url("missing.json")])

    #expect(result.status == 1)
    #expect(result.stderrText.contains("404"))
  }
}
