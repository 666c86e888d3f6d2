import Foundation
import TestTiming
import Testing

@testable import OfflineStore

@Suite(.timed) struct TransferJournalTests {
  let directory: TemporaryDirectory
  let journal: TransferJournal

  init() throws {
    directory = try TemporaryDirectory()
    journal = try OfflineIndex(directory: directory.url).transfers
  }

  private func sample(_ name: String = "a.mp4") -> TransferRecord {
    TransferRecord(
      destination: "/data/\(name)", url: "https://example.test/\(name)", phase: .active,
      durableOffset: 1024, bootID: "boot-1", totalLength: 4096, etag: "\"abc\"",
      lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
      expectedSHA256: String(repeating: "ab", count: 32),
      sha256: nil)
  }

  @Test func aSavedRecordReadsBackEqualWithItsStamp() throws {
    let saved = try journal.save(sample())
    #expect(try journal.record(forDestination: "/data/a.mp4") == saved)
    var expected = sample()
    expected.updatedAt = saved.updatedAt
    #expect(saved == expected)
    #expect(abs(saved.updatedAt.timeIntervalSinceNow) < 60)
  }

  @Test func anUnknownDestinationHasNoRecord() throws {
    #expect(try journal.record(forDestination: "/data/none") == nil)
  }

  @Test func savingAgainReplacesTheRecord() throws {
    try journal.save(sample())
    var changed = sample()
    changed.phase = .complete
    changed.sha256 = String(repeating: "cd", count: 32)
    changed.etag = nil
    let saved = try journal.save(changed)
    #expect(try journal.all() == [saved])
    #expect(try journal.record(forDestination: "/data/a.mp4")?.etag == nil)
  }

  @Test func updateProgressMovesTheOffsetAndBootID() throws {
    try journal.save(sample())
    let updated = try journal.updateProgress(
      destination: "/data/a.mp4", durableOffset: 2048, bootID: "boot-2")
    #expect(updated)
    let record = try #require(try journal.record(forDestination: "/data/a.mp4"))
    #expect(record.durableOffset == 2048)
    #expect(record.bootID == "boot-2")
    #expect(record.etag == "\"abc\"")
  }

  @Test func updateProgressOfAnUnknownDestinationDoesNothingAndReturnsFalse() throws {
    let updated = try journal.updateProgress(
      destination: "/data/none", durableOffset: 10, bootID: nil)
    #expect(!updated)
    #expect(try journal.all().isEmpty)
  }

  @Test func removeDeletesOnlyThatRecordAndIgnoresUnknownOnes() throws {
    try journal.save(sample("a"))
    try journal.save(sample("b"))
    try journal.remove(destination: "/data/a")
    try journal.remove(destination: "/data/none")
    #expect(try journal.all().map(\.destination) == ["/data/b"])
  }

  @Test func allListsLeastRecentlyUpdatedFirst() throws {
    try journal.save(sample("a"))
    Thread.sleep(forTimeInterval: 0.005)
    try journal.save(sample("b"))
    Thread.sleep(forTimeInterval: 0.005)
    try journal.updateProgress(destination: "/data/a", durableOffset: 2000, bootID: nil)
    #expect(try journal.all().map(\.destination) == ["/data/b", "/data/a"])
  }

  @Test func aNegativeOffsetIsRefusedAsAConstraint() throws {
    var record = sample()
    record.durableOffset = -1
    let error = #expect(throws: StoreError.self) { try journal.save(record) }
    #expect(error?.kind == .constraint)
  }

  @Test func tenThousandProgressUpdatesRun() throws {
    try journal.save(sample())
    for offset in 1...10_000 {
      try journal.updateProgress(
        destination: "/data/a.mp4", durableOffset: Int64(offset) * 4096, bootID: "boot-1")
    }
    #expect(try journal.record(forDestination: "/data/a.mp4")?.durableOffset == 40_960_000)
  }

  @Test func writesFromManyThreadsAreSerialised() throws {
    let journal = journal
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for number in 0..<250 {
        _ = try? journal.save(
          TransferRecord(destination: "/data/\(worker)-\(number)", url: "https://e.test/"))
      }
    }
    #expect(try journal.all().count == 1000)
  }

  @Test func recordsSurviveReopeningTheIndex() throws {
    let saved = try journal.save(sample())
    let reopened = try OfflineIndex(directory: directory.url)
    #expect(try reopened.transfers.all() == [saved])
    let applied = try Migrator().appliedMigrations(in: reopened.database)
    #expect(TransferJournal.migrations.map(\.name).allSatisfy(applied.contains))
  }
}
