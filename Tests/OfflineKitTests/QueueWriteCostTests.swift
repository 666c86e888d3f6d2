import Foundation
import OfflineStore
import TestSupport
import Testing

@testable import OfflineKit

/// What the runner writes to and reads from the index per file of a queue of small files
/// (issue 14, 1000 files of 100 KiB at curl's speed, fourth pass). Counts, never times.
@Suite(.serialized) struct QueueWriteCostTests {
  /// Small files, one at a time, with a poll interval no test waits for: the whole queue
  /// finishes in one batch (it is flushed when nothing else runs), so what each file costs
  /// is all that varies.
  private static func smallQueue(_ count: Int, prefix: String) throws -> QueueCostFixture {
    var files: [String: Int] = [:]
    // 8 KiB: the body arrives at once, well within one progress interval.
    for index in 0..<count { files["f\(index).bin"] = 8 << 10 }
    return try QueueCostFixture(
      files: files, prefix: prefix, parallelDownloads: 1, pollInterval: .seconds(3600))
  }

  /// Pins a per-file write nobody read: the runner marked a launched file `starting`, then,
  /// at its first progress report, wrote a transaction to clear that, though for a file that
  /// arrives within one progress interval that report is its last and the batch that records
  /// it downloaded clears the reason in its own transaction anyway. Per file there were four
  /// commits (starting, receiving, the journal's response and its completion); now three,
  /// and the files still end downloaded with no wait reason.
  @Test(.timeLimit(.minutes(2)))
  func aSmallFileIsMarkedStartingButNeverWrittenAgainBeforeItsBatch() async throws {
    let count = 12
    let queue = try Self.smallQueue(count, prefix: "offlinekit-write-cost")
    let contents = try await queue.addAll()
    let database = queue.manager.index.contents.database

    let before = database.commitCount
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))
    let commits = database.commitCount - before

    try await queue.expectDownloaded(contents)
    for content in contents {
      #expect(try await queue.manager.snapshot(id: content.id).waitReason == nil)
    }
    // Three a file at most, plus the batch's pieces and its `downloaded` transaction.
    #expect(commits <= 3 * count + 2, "\(commits) commits for \(count) files")
    await queue.manager.close()
  }
}
