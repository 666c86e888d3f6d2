import Foundation
import OfflineStore
import TestTiming
import Testing

/// Many journal records in one go (issue 14, HLS CPU: a stream's pieces cost one commit and
/// one read each).
@Suite(.timed) struct TransferJournalBatchTests {
  func journal() throws -> (TemporaryDirectory, TransferJournal) {
    let folder = try TemporaryDirectory()
    let database = try Database(path: folder.url.appending(path: "index.sqlite").path)
    return (folder, try TransferJournal(database: database))
  }

  /// Pins issue 14: saving many records took one commit each.
  @Test func manyRecordsAreSavedInOneCommit() throws {
    let (_, journal) = try journal()
    let records = (0..<50).map {
      TransferRecord(destination: "/s/c/p\($0).ts", url: "http://127.0.0.1/p\($0).ts")
    }
    let before = journal.database.commitCount
    try journal.save(records)
    #expect(journal.database.commitCount - before == 1)
    #expect(try journal.records(under: "/s/c").count == 50)
  }

  /// A batch with one bad record writes none of them, and says which constraint failed.
  @Test func aBatchWithABadRecordWritesNothing() throws {
    let (_, journal) = try journal()
    var bad = TransferRecord(destination: "/s/c/bad.ts", url: "http://127.0.0.1/bad.ts")
    bad.durableOffset = -1
    let good = TransferRecord(destination: "/s/c/good.ts", url: "http://127.0.0.1/good.ts")
    #expect(throws: StoreError.self) { try journal.save([good, bad]) }
    #expect(try journal.record(forDestination: good.destination) == nil)
  }

  /// The records under a folder are those inside it, not a sibling sharing its prefix.
  @Test func recordsUnderAFolderLeaveOutItsSiblings() throws {
    let (_, journal) = try journal()
    try journal.save([
      TransferRecord(destination: "/s/c/a.ts", url: "http://127.0.0.1/a.ts"),
      TransferRecord(destination: "/s/c2/b.ts", url: "http://127.0.0.1/b.ts"),
      // Names that sort right before and right after the folder's own paths.
      TransferRecord(destination: "/s/c.old/b.ts", url: "http://127.0.0.1/b.ts"),
      TransferRecord(destination: "/s/c0/b.ts", url: "http://127.0.0.1/b.ts"),
      TransferRecord(destination: "/s/c/sub/d.ts", url: "http://127.0.0.1/d.ts"),
    ])
    #expect(try Set(journal.records(under: "/s/c/").keys) == ["/s/c/a.ts", "/s/c/sub/d.ts"])
    #expect(try Set(journal.records(under: "/s/c").keys) == ["/s/c/a.ts", "/s/c/sub/d.ts"])
  }

  /// A batch of finished files reads its journal records in one query: those of the named
  /// destinations, whatever their names hold, and no other.
  @Test func recordsOfNamedDestinationsAreReadInOneQuery() throws {
    let (_, journal) = try journal()
    let quoted = #"/s/files/say "hi" \ 1.bin"#
    try journal.save([
      TransferRecord(destination: "/s/files/a.bin", url: "http://127.0.0.1/a.bin"),
      TransferRecord(destination: quoted, url: "http://127.0.0.1/q.bin"),
      TransferRecord(destination: "/s/files/other.bin", url: "http://127.0.0.1/o.bin"),
    ])
    let found = try journal.records(
      forDestinations: ["/s/files/a.bin", quoted, "/s/files/missing.bin"])
    #expect(Set(found.keys) == ["/s/files/a.bin", quoted])
    #expect(found[quoted]?.url == "http://127.0.0.1/q.bin")
    #expect(try journal.records(forDestinations: [String]()).isEmpty)
  }
}
