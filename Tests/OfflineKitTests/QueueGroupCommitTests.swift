import Foundation
import TestSupport
import Testing

@testable import OfflineKit

/// How the queue makes many small files durable (issue 14, small files at curl's speed).
@Suite(.serialized) struct QueueGroupCommitTests {
  /// Pins issue 14's per-file durability cost: each file of a queue was fsynced on its own,
  /// its folder fsynced after the rename, and its manifest and the manifest's folder fsynced
  /// too (four flushes a file). Files that finish near each other are now made durable
  /// together, by one sync of the file system before one transaction records them.
  @Test func aQueueOfSmallFilesIsMadeDurableWithFewerFlushesThanFiles() async throws {
    let count = 24
    var files: [String: Int] = [:]
    for index in 0..<count { files["f\(index).bin"] = 20 << 10 }
    let queue = try QueueCostFixture(
      files: files, prefix: "offlinekit-group-commit", parallelDownloads: 4,
      pollInterval: .seconds(1))

    let before = Durability.flushes
    let contents = try await queue.addAll()
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))
    let flushes = Durability.flushes - before

    try await queue.expectDownloaded(contents)
    #expect(flushes < count, "\(flushes) flushes for \(count) files")
    await queue.manager.close()
  }
}
