import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// What the runner writes to and reads from the index per file of a queue of small files
/// (issue 14, 1000 files of 100 KiB at curl's speed, fourth pass). Counts, never times.
@Suite(.serialized, .timed) struct QueueWriteCostTests {
  /// Small files, one at a time, with a poll interval no test waits for: the whole queue
  /// finishes in one batch (it is flushed when nothing else runs), so what each file costs
  /// is all that varies.
  /// The clock stands still (a manual clock nobody advances): an 8 KiB body arrives within
  /// one progress and checkpoint interval however loaded the machine, so no file costs a
  /// checkpoint of its own (session 38's CI, a loaded machine: one count over the budget).
  private static func smallQueue(_ count: Int, prefix: String) throws -> QueueCostFixture {
    var files: [String: Int] = [:]
    for index in 0..<count { files["f\(index).bin"] = 8 << 10 }
    return try QueueCostFixture(
      files: files, prefix: prefix, parallelDownloads: 1, pollInterval: .seconds(3600),
      clock: ManualClock())
  }

  /// Pins a per-file write nobody read: the runner marked a launched file `starting`, then,
  /// at its first progress report, wrote a transaction to clear that, though for a file that
  /// arrives within one progress interval that report is its last and the batch that records
  /// it downloaded clears the reason in its own transaction anyway. Per file there were four
  /// commits (starting, receiving, the journal's response and its completion); then three.
  /// The journal's `complete` record now waits for the batch too (``CompletionBatch``, one
  /// transaction for all its files): two, and the files still end downloaded with no wait
  /// reason. Then the `starting` mark went too: a launched file is marked at the runner's
  /// next turn only if its bytes have not come by then, and subscribers see it starting at
  /// once all the same. One commit a file is left, its response record before its rename,
  /// which files finishing together share (``ResponseRecordBatch``; one at a time here).
  /// Of the reads that take SQLite's locks for one statement each, the journal look-up of
  /// every file went the same way: the runner reads the journal of the queue's rows with
  /// them (four such reads a file here before, three now; the others are the change counter
  /// before each launch and the idle checks of a queue run one file at a time).
  @Test(.timeLimit(.minutes(2)))
  func aSmallFileCostsOneCommitAndNoJournalReadOfItsOwnBeforeItsBatch() async throws {
    let count = 12
    let queue = try Self.smallQueue(count, prefix: "offlinekit-write-cost")
    let contents = try await queue.addAll()
    let database = queue.manager.index.contents.database

    let before = database.commitCount
    let readsBefore = database.lonelyReadCount
    let batchesBefore = await queue.manager.commits.batchesStarted
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))
    let commits = database.commitCount - before
    let reads = database.lonelyReadCount - readsBefore
    let batches = await queue.manager.commits.batchesStarted - batchesBefore

    try await queue.expectDownloaded(contents)
    for content in contents {
      #expect(try await queue.manager.snapshot(id: content.id).waitReason == nil)
    }
    // One a file at most, plus each batch's `complete` records, pieces and `downloaded`.
    // Usually one batch; a loaded machine may find nothing running between two files and
    // flush early (a second batch), which is the batching's business, not a file's cost.
    #expect(batches >= 1)
    #expect(
      commits <= count + 3 * batches, "\(commits) commits for \(count) files in \(batches) batches")
    #expect(
      reads <= 3 * count + 3 * (batches - 1),
      "\(reads) reads of their own for \(count) files in \(batches) batches")
    await queue.manager.close()
  }

  /// Pins a per-launch query: each time a file ended, the runner read the queue's rows
  /// that may start (every row still `downloading`, less those running or in a batch) to
  /// launch the next one; with a thousand small files the largest share of its SQLite time.
  /// The rows are now read once and serve the launches after it until the contents change.
  @Test(.timeLimit(.minutes(2)))
  func aQueueOfSmallFilesReadsItsRowsOnceForManyLaunches() async throws {
    let count = 24
    let queue = try Self.smallQueue(count, prefix: "offlinekit-queue-reads")
    let contents = try await queue.addAll()

    let before = await queue.manager.queueReads
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))
    let reads = await queue.manager.queueReads - before

    try await queue.expectDownloaded(contents)
    // A read per launch before (16 for 12 files); now one, and a few once none is left.
    #expect(reads < count / 3, "\(reads) reads of the queue for \(count) files")
    await queue.manager.close()
  }

  /// The rows read serve the next launches only while nothing changed: a write to the
  /// contents (a new revision) or another process's commit (a new data version) reads them
  /// again, and so does a look after every row read was launched.
  @Test func upcomingRowsAreReadAgainWhenTheContentsChange() {
    let rows = ["a", "b", "c"].map { id in
      ContentRecord(id: id, url: "http://127.0.0.1:9/\(id)", fileName: id, state: .downloading)
    }
    var upcoming = UpcomingRows()
    var reads = 0
    let read = { () -> [ContentRecord] in
      reads += 1
      return rows
    }
    let first = UpcomingRows.Stamp(revision: 1, dataVersion: 1)

    #expect(upcoming.records(at: first, read: read).map(\.id) == ["a", "b", "c"])
    upcoming.remove("a")
    #expect(upcoming.records(at: first, read: read).map(\.id) == ["b", "c"])
    #expect(reads == 1)
    _ = upcoming.records(at: UpcomingRows.Stamp(revision: 2, dataVersion: 1), read: read)
    #expect(reads == 2)
    _ = upcoming.records(at: UpcomingRows.Stamp(revision: 2, dataVersion: 2), read: read)
    #expect(reads == 3)
    upcoming.forget()
    _ = upcoming.records(at: UpcomingRows.Stamp(revision: 2, dataVersion: 2), read: read)
    #expect(reads == 4)
    for id in ["a", "b", "c"] { upcoming.remove(id) }
    _ = upcoming.records(at: UpcomingRows.Stamp(revision: 2, dataVersion: 2), read: read)
    #expect(reads == 5)
  }

  /// Keeps what reading the rows once must not lose: a content paused by another process
  /// (`offline pause` while `run` runs) after the runner read the queue's rows, while a file
  /// whose head comes late held the only slot (nothing of the runner's own is written
  /// meanwhile), is not started from those rows when the slot frees; the one after it is.
  @Test(.timeLimit(.minutes(2)))
  func aContentPausedByAnotherProcessAfterTheRowsWereReadIsNotStarted() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let body = Data(repeating: 7, count: 8 << 10)
    let file = FaultServer.Behaviour.resource(FaultServer.Resource(body: body))
    server.setRoute("/slow.bin", .delayed(seconds: 2, then: file))
    for name in ["/a.bin", "/b.bin"] { server.setRoute(name, file) }
    let folder = try TemporaryDirectory(prefix: "offlinekit-queue-paused")
    let store = folder.url.appending(path: "store", directoryHint: .isDirectory)
    var configuration = ManagerFixture.configuration(parallelDownloads: 1)
    configuration.pollInterval = .seconds(3600)
    let manager = try OfflineManager(directory: store, configuration: configuration)
    _ = try await manager.add(
      ["slow", "a", "b"].map { (id: String) in
        OfflineSource(url: server.url("/" + id + ".bin"), id: id)
      })

    let run = Task { try await manager.runUntilIdle() }
    #expect(await eventually { await manager.machine.running["slow"] != nil })
    let elsewhere = try OfflineIndex(directory: store)  // another connection, as another process
    try elsewhere.contents.update(id: "a") { $0.state = .suspended }
    try await run.value

    #expect(server.requests(for: "/a.bin").isEmpty, "the paused content was fetched")
    #expect(try await manager.snapshot(id: "a").state == .suspended)
    #expect(try await manager.snapshot(id: "b").state == .downloaded)
    #expect(try await manager.snapshot(id: "slow").state == .downloaded)
    await manager.close()
  }
}
