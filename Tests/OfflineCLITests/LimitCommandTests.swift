import Foundation
import OfflineHTTP
import OfflineKit
import TestSupport
import TestTiming
import Testing

/// `offline limit RATE|none` and `add --limit-rate` kept with the content (issue 13, item 5).
@Suite(.ownThreads, .timed) struct LimitCommandTests {
  func store() async throws -> (TemporaryDirectory, URL) {
    let folder = try TemporaryDirectory()
    return (folder, folder.url.appending(path: "store", directoryHint: .isDirectory))
  }

  func offline(_ arguments: [String], store: URL) async throws -> OfflineRun {
    try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 60)
  }

  /// Pins: there was no `limit` command ("Unknown subcommand"); it keeps the cap in the
  /// store, where a runner follows it, and `none` removes it.
  @Test func limitKeepsTheQueuesCapInTheStore() async throws {
    let (folder, store) = try await store()
    _ = folder
    let set = try await offline(["limit", "2M"], store: store)
    #expect(set.status == 0, "\(set.stderrText)")
    #expect(set.stderrText.contains("2 MiB/s"), "\(set.stderrText)")
    let manager = try OfflineManager(directory: store)
    #expect(try await manager.keptRateLimit() == .limited(ByteRate(bytesPerSecond: 2 << 20)))
    await #expect(try offline(["limit", "none"], store: store).status == 0)
    #expect(try await manager.keptRateLimit() == .unlimited)
    await manager.close()
  }

  @Test(arguments: [["limit", "fast"], ["limit", "-3k"], ["limit"]])
  func aLimitThatIsNotARateIsAUsageErrorNamingTheArgument(arguments: [String]) async throws {
    let (folder, store) = try await store()
    _ = folder
    let result = try await offline(arguments, store: store)
    #expect(result.status == 64, "\(result.stderrText)")
    #expect(result.stderrText.contains("<rate>"), "\(result.stderrText)")
  }

  /// Pins: `add --limit-rate` lived in the adding process's memory; it is kept with the
  /// content's options, so the `run` of another process caps it.
  @Test func addKeepsItsLimitRateWithTheContent() async throws {
    let (folder, store) = try await store()
    _ = folder
    let added = try await offline(
      ["add", "http://127.0.0.1:9/a.bin", "--id", "slow", "--limit-rate", "500k"], store: store)
    #expect(added.status == 0, "\(added.stderrText)")
    let kept = try #require(
      FileManager.default.contents(atPath: store.appending(path: "secrets/slow.json").path))
    let object = try JSONSerialization.jsonObject(with: kept) as? [String: Any]
    #expect((object?["rateLimit"] as? NSNumber)?.int64Value == 500 << 10)
  }
}
