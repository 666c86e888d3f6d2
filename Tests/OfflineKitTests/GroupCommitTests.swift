import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The queue's group commit as a value: when a batch is due, and which contents it keeps
/// out of the queue's picks until their batch is recorded.
@Suite(.timed) struct GroupCommitTests {
  static func outcome(_ name: String) -> Transfer.Outcome {
    Transfer.Outcome(
      destination: "/s/files/\(name)", length: 1, sha256: nil, wasAlreadyComplete: false,
      bytesReceived: 1, check: .length)
  }

  @Test func aBatchIsDueWhenFullOrWhenNothingElseRunsAndHoldsItsContentsUntilRecorded() throws {
    let scratch = try TemporaryDirectory()
    let index = try OfflineIndex(directory: scratch.url)
    var commits = GroupCommit(
      completions: CompletionBatch(journal: index.transfers),
      responses: ResponseRecordBatch(journal: index.transfers))
    #expect(!commits.isDue(running: 0), "nothing waits")
    commits.add("a", Self.outcome("a"))
    #expect(!commits.isDue(running: 3) && commits.isDue(running: 0))
    for n in 1..<GroupCommit.largest { commits.add("f\(n)", Self.outcome("f\(n)")) }
    #expect(commits.isDue(running: 3), "full")
    #expect(commits.holds("a") && commits.ids.count == GroupCommit.largest)

    var started: [[String]] = []
    var key = 0
    commits.startBatch { entries, batch in
      started.append(entries.map(\.id))
      key = batch
      return Task {}
    }
    #expect(started.first?.first == "a" && started.first?.count == GroupCommit.largest)
    #expect(commits.holds("a") && !commits.isSettled, "syncing: still out of the picks")
    #expect(!commits.isDue(running: 0), "taken")
    commits.startBatch { _, _ in
      Issue.record("nothing waits: no batch")
      return Task {}
    }
    commits.finish(key)
    #expect(!commits.holds("a") && commits.ids.isEmpty && commits.isSettled)
  }

  /// A content that ends again while its earlier batch syncs (resumed elsewhere, run
  /// again) stays out of the queue's picks until its second batch is recorded too.
  @Test func aContentWaitingAgainStaysHeldWhenItsEarlierBatchIsRecorded() throws {
    let scratch = try TemporaryDirectory()
    let index = try OfflineIndex(directory: scratch.url)
    var commits = GroupCommit(
      completions: CompletionBatch(journal: index.transfers),
      responses: ResponseRecordBatch(journal: index.transfers))
    var keys: [Int] = []
    commits.add("a", Self.outcome("a"))
    commits.add("b", Self.outcome("b"))
    commits.startBatch { _, key in
      keys.append(key)
      return Task {}
    }
    commits.add("a", Self.outcome("a"))
    commits.finish(keys[0])
    #expect(commits.holds("a") && commits.ids == ["a"], "waiting for its second batch")
    #expect(!commits.holds("b"))
    commits.startBatch { _, key in
      keys.append(key)
      return Task {}
    }
    #expect(commits.holds("a"), "syncing")
    commits.finish(keys[1])
    #expect(!commits.holds("a") && commits.ids.isEmpty && commits.isSettled)
  }
}
