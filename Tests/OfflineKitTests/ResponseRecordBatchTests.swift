import Foundation
import OfflineLocks
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The group commit of the response records a stream's pieces write before their renames
/// (issue 14, HLS CPU: one commit per piece was 13 % of a 1000-segment `get`'s samples).
/// Counts commits and records, never times.
@Suite(.timed) struct ResponseRecordBatchTests {
  /// A journal in a fresh folder; `busyTimeout` is how long its writes wait for another
  /// connection's lock.
  private func journal(busyTimeout: Duration = .seconds(5)) throws -> (
    TemporaryDirectory, TransferJournal
  ) {
    let folder = try TemporaryDirectory()
    let database = try Database(
      path: folder.url.appending(path: "index.sqlite").path, busyTimeout: busyTimeout)
    return (folder, try TransferJournal(database: database))
  }

  private func record(_ name: String) -> TransferRecord {
    TransferRecord(destination: "/s/c/\(name).ts", url: "http://127.0.0.1/\(name).ts")
  }

  /// Pieces that finish while the first one waits share its transaction, and each returns
  /// only with its record in the journal.
  @Test func recordsHandedInTogetherAreWrittenInOneTransaction() async throws {
    let (_, journal) = try journal()
    // A long gather, so the four writes surely meet whatever the machine's load.
    let batch = ResponseRecordBatch(journal: journal, gather: .milliseconds(500))
    batch.writers.store(4, ordering: .relaxed)
    let before = journal.database.commitCount
    try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<4 {
        let record = record("p\(index)")
        group.addTask {
          try await batch.write(record)
          // Returned: the record must be readable now, before any rename would happen.
          return try journal.record(forDestination: record.destination)?.url ?? "missing"
        }
      }
      for try await url in group { #expect(url.hasPrefix("http://127.0.0.1/p")) }
    }
    #expect(journal.database.commitCount - before == 1)
    #expect(try journal.records(under: "/s/c").count == 4)
  }

  /// Without a gather (the manager's queue), the first record is written at once, and the
  /// records handed in while its transaction runs (here held up by another connection's
  /// write lock) go together in the next one, led by the oldest of them: two commits for
  /// five records, where each alone would have made five.
  @Test func withoutAGatherRecordsHandedInDuringATransactionShareTheNext() async throws {
    // The first write waits for the lock as long as the lock may be held (30 s below): with
    // the default 5 s it failed "database is locked" on a loaded CI machine (session 39's stop)
    // before the four others were handed in.
    let (folder, journal) = try journal(busyTimeout: .seconds(60))
    let batch = ResponseRecordBatch(journal: journal, gather: .zero)
    batch.writers.store(5, ordering: .relaxed)
    let other = try Database(path: folder.url.appending(path: "index.sqlite").path)
    let holding = Locked(false)
    // Held until the four others wait behind the first (at most 30 s): a fixed 2 s was over
    // before they were handed in on a loaded machine, and each then committed alone.
    let lock = Thread {
      try? other.transaction { _ in
        holding.withLock { $0 = true }
        for _ in 0..<1500 where batch.waitingCount < 4 { Thread.sleep(forTimeInterval: 0.02) }
      }
    }
    lock.start()
    #expect(await eventually { holding.withLock { $0 } })
    let before = journal.database.commitCount
    try await withThrowingTaskGroup(of: Void.self) { group in
      // The first write blocks its thread in SQLite's busy wait for as long as the lock is
      // held: on a thread of its own, never one of the pool's two, which the other tests
      // and the four writes below need.
      group.addTask(executorPreference: DispatchTaskExecutor(label: "leading-write")) {
        try await batch.write(record("first"))
      }
      try await Task.sleep(for: .milliseconds(300))  // the first waits for the lock
      for index in 0..<4 {
        let record = record("p\(index)")
        group.addTask { try await batch.write(record) }
      }
      try await group.waitForAll()
    }
    #expect(journal.database.commitCount - before == 2)
    #expect(try journal.records(under: "/s/c").count == 5)
  }

  /// With no other transfer running nobody can join: the record is written at once, not
  /// after the gather (here an hour, which the test's time limit would cut).
  @Test(.timeLimit(.minutes(1))) func aLoneWriterDoesNotWaitForOthers() async throws {
    let (_, journal) = try journal()
    let batch = ResponseRecordBatch(journal: journal, gather: .seconds(3600))
    batch.writers.store(1, ordering: .relaxed)
    try await batch.write(record("alone"))
    try await batch.write(record("next"))
    #expect(try journal.records(under: "/s/c").count == 2)
  }

  /// A transaction that fails fails every transfer whose record was in it, and writes none
  /// of them: no piece renames on a record that is not there.
  @Test func aFailedTransactionFailsEveryRecordInIt() async throws {
    let (_, journal) = try journal()
    let batch = ResponseRecordBatch(journal: journal, gather: .milliseconds(500))
    batch.writers.store(2, ordering: .relaxed)
    var bad = record("bad")
    bad.durableOffset = -1  // the table's CHECK refuses it
    let good = record("good")
    let failures = await withTaskGroup(of: Bool.self) { group in
      for record in [good, bad] {
        group.addTask {
          do {
            try await batch.write(record)
            return false
          } catch {
            return true
          }
        }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(failures == 2)
    #expect(try journal.record(forDestination: good.destination) == nil)
  }
}
