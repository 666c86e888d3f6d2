import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// How the queue makes many small files durable (issue 14, small files at curl's speed).
@Suite(.serialized, .timed) struct QueueGroupCommitTests {
  /// `count` files of 20 KiB, `parallel` at a time, in a store named with `prefix`.
  private static func queue(_ count: Int, parallel: Int, prefix: String) throws
    -> QueueCostFixture
  {
    var files: [String: Int] = [:]
    for index in 0..<count { files["f\(index).bin"] = 20 << 10 }
    return try QueueCostFixture(
      files: files, prefix: prefix, parallelDownloads: parallel, pollInterval: .seconds(1))
  }

  /// Pins issue 14's per-file durability cost: each file of a queue was fsynced on its own,
  /// its folder fsynced after the rename, and its manifest and the manifest's folder fsynced
  /// too (four flushes a file). Files that finish near each other are now made durable
  /// together, by one sync of the file system before one transaction records them.
  @Test func aQueueOfSmallFilesIsMadeDurableWithFewerFlushesThanFiles() async throws {
    let count = 24
    let queue = try Self.queue(count, parallel: 4, prefix: "offlinekit-group-commit")

    // This store's flushes only: the process-wide count took in those of the suites running
    // beside this one (43 for 24 files once, in a run six tests at a time).
    let flushes = FolderFlushes(under: queue.manager.directory)
    let contents = try await queue.addAll()
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))

    try await queue.expectDownloaded(contents)
    #expect(flushes.count > 0, "no flush of the store was counted")
    #expect(flushes.count < count, "\(flushes.count) flushes for \(count) files")
    await queue.manager.close()
  }

  /// Keeps what the waiting `complete` records must not lose (issue 14: a queue's files
  /// write theirs with the batch that records them `downloaded`, not a commit each). A kill
  /// after the files were renamed into place but before their batch leaves each file's
  /// journal record as its response wrote it and the contents `downloading`: the next run
  /// fetches none of them again, and its batch records each `complete`, with the file's
  /// identity, before the runner is idle.
  @Test func queueFilesWhoseCompleteRecordWasLostAreNotFetchedAgain() async throws {
    let count = 6
    let queue = try Self.queue(count, parallel: 2, prefix: "offlinekit-lost-complete")
    let contents = try await queue.addAll()
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))
    let index = queue.manager.index
    var paths: [String] = []
    for content in contents {
      let path = try await content.playbackURL().path
      paths.append(path)
      var response = try #require(try index.transfers.record(forDestination: path))
      #expect(response.phase == .complete)
      response.phase = .active
      response.sha256 = nil
      response.fileIdentity = nil
      try index.transfers.save(response)
      try index.contents.update(id: content.id) { $0.state = .downloading }
    }
    let fetched = try await queue.origin.nginx.accessLog(minimumCount: count).count
    #expect(fetched == count)

    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))

    #expect(try queue.origin.nginx.accessLog().count == fetched, "a file was fetched again")
    try await queue.expectDownloaded(contents)
    for path in paths {
      let record = try #require(try index.transfers.record(forDestination: path))
      #expect(record.phase == .complete && record.fileIdentity != nil, "\(path): \(record)")
    }
    await queue.manager.close()
  }
}
