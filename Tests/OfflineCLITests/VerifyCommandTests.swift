import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 15 through the command line: `offline verify` (exit 0 whole, 1 damaged, `--json`,
/// `--remote`), `offline repair` (only the damaged chunks, finished after a kill, refusing a
/// changed origin until `--redownload`), and the damage `ls` and `path` show. Before, none of
/// these existed: a damaged content was listed as downloaded and `path` printed it. The
/// repairs that are killed are in `KilledRunTests` and `CrashPointTests`.
@Suite(.ownThreads, .timed) struct VerifyCommandTests {
  /// A queue fixture with `large.bin` (8 MiB) downloaded as content `big`.
  static func downloaded(limitRate: String? = nil) async throws -> (QueueFixture, String) {
    let fixture = try QueueFixture(limitRate: limitRate)
    _ = try await fixture.add([fixture.url("large.bin"), "--id", "big"])
    let run = try await fixture.offline(["run", "--quiet"], timeout: 60)
    try #require(run.status == 0, "\(run.stderrText)")
    return (fixture, StoreFiles.file("large.bin", of: "big", in: fixture.store).path)
  }

  @Test func verifyExitsZeroWhenWholeAndOneNamingTheDamagedChunk() async throws {
    let (fixture, path) = try await Self.downloaded()
    let whole = try await fixture.offline(["verify", "big"])
    #expect(whole.status == 0, "\(whole.stderrText)")
    #expect(whole.stdoutText.hasPrefix("big: whole (1 file, 8.0 MiB read)"), "\(whole.stdoutText)")
    try FileDamage.flipByte(at: 5 << 20, of: path)
    let damaged = try await fixture.offline(["verify", "big"])
    #expect(damaged.status == 1)
    #expect(
      damaged.stdoutText
        == "big: damaged\n  large.bin has a wrong hash in the chunk at offset 4194304\n")
    let json = try await fixture.offline(["verify", "--all", "--json"])
    #expect(json.status == 1)
    let array = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
    let problems = try #require(array?.first?["problems"] as? [[String: Any]])
    #expect(problems.first?["fault"] as? String == "wrongHash")
    #expect(problems.first?["chunkOffsets"] as? [Int] == [4 << 20])
    #expect(array?.first?["whole"] as? Bool == false)
  }

  @Test func verifyWithoutIdsIsAUsageError() async throws {
    let fixture = try QueueFixture()
    let result = try await fixture.offline(["verify"])
    #expect(result.status == 64)
    #expect(result.stderrText.contains("Missing ids (or --all)."), "\(result.stderrText)")
  }

  @Test func lsAndPathShowAMissingFileFoundByTheQuickCheck() async throws {
    let (fixture, path) = try await Self.downloaded()
    try FileManager.default.removeItem(atPath: path)
    let list = try await fixture.offline(["ls"])
    #expect(list.stdoutText.contains("damaged: large.bin is missing"), "\(list.stdoutText)")
    let json = try await fixture.offline(["ls", "--json"])
    #expect(json.stdoutText.contains("\"damage\":\"large.bin is missing\""), "\(json.stdoutText)")
    let printed = try await fixture.offline(["path", "big"])
    #expect(printed.status == 1)
    #expect(printed.stdout.isEmpty)
    #expect(
      printed.stderrText.contains("is damaged: large.bin is missing"), "\(printed.stderrText)")
  }

  @Test func verifyRemoteAndRepairSeeAChangedOriginAndRedownloadWorks() async throws {
    let (fixture, path) = try await Self.downloaded()
    let upToDate = try await fixture.offline(["verify", "--remote", "big"])
    #expect(upToDate.status == 0)
    #expect(upToDate.stdoutText == "big: up to date\n")
    let before = try fixture.nginx.accessLog().count
    let newer = TestData.bytes(count: 8 << 20, seed: 77)
    let served = fixture.folder.url.appending(path: "www/large.bin")
    try newer.write(to: served)
    // nginx's validators have a resolution of one second: the new version is a minute newer.
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: served.path)
    let changed = try await fixture.offline(["verify", "--remote", "big"])
    #expect(changed.status == 1)
    #expect(changed.stdoutText.hasPrefix("big: changed on the origin"), "\(changed.stdoutText)")
    let asked = try await fixture.nginx.accessLog(minimumCount: before + 1).dropFirst(before)
    #expect(asked.allSatisfy { $0.method == "HEAD" && $0.bodyBytesSent == 0 }, "downloads nothing")
    try FileDamage.flipByte(at: 1, of: path)
    let refused = try await fixture.offline(["repair", "big"])
    #expect(refused.status == 1)
    #expect(refused.stderrText.contains("--redownload"), "\(refused.stderrText)")
    let redownloaded = try await fixture.offline(["repair", "big", "--redownload"], timeout: 60)
    #expect(redownloaded.status == 0, "\(redownloaded.stderrText)")
    #expect(FileManager.default.contents(atPath: path) == newer)
    #expect(try await fixture.offline(["verify", "big"]).status == 0)
  }
}
