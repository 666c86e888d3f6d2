import Foundation
import TestSupport
import TestTiming
import Testing

/// The process dies (`_exit(137)`, as a SIGKILL would end it) at each named step of the
/// state changes, armed with `OFFLINEKIT_CRASH_POINT` (debug builds only); the next command
/// must bring the content to a state that can go on, with nothing lost and nothing back
/// from the dead. Rows "crash points" of docs/Reliability.md. The command that crashes is a
/// real process (it ends its process); the next one runs in-process.
@Suite(.ownThreads, .timed) struct CrashPointTests {
  /// Runs `offline --store STORE ARGUMENTS` with crash point `point` armed.
  func crashing(
    at point: String, _ fixture: QueueFixture, _ arguments: [String]
  ) async throws -> ProcessRunner.Output {
    try await OfflineBinary.run(arguments, store: fixture.store, crashingAt: point)
  }

  /// A content of `large.bin` with part of it on disk, left `downloading` by a killed run.
  func partlyDownloaded(_ fixture: QueueFixture) async throws -> String {
    let (id, run) = try await fixture.runningLargeDownload(moreThan: 128 << 10)
    defer { run.killIfRunning() }
    kill(run.processIdentifier, SIGKILL)
    _ = await run.waitBounded(seconds: 10)
    return id
  }

  /// After a crash in a cancel, or in the cleanup that ends it: the next command finishes
  /// the cancel, and a run afterwards brings nothing back.
  @Test(arguments: ["cancel.afterCanceling", "cleanup.afterDeletingFiles"])
  func aCancelCutShortIsFinishedByTheNextCommand(point: String) async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let id = try await partlyDownloaded(fixture)

    let cancel = try await crashing(at: point, fixture, ["cancel", id])
    #expect(cancel.status == 137, "\(cancel.stderrText)")

    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    #expect(fixture.leftovers(of: id).isEmpty)
    #expect(try await fixture.offline(["run", "--quiet"]).status == 0)
    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    #expect(fixture.leftovers(of: id).isEmpty)
  }

  /// After a crash in `rm`, before or after its files went: the next command finishes the
  /// delete; the file never comes back.
  @Test(arguments: ["delete.afterIntent", "cleanup.afterDeletingFiles"])
  func aDeleteCutShortIsFinishedByTheNextCommand(point: String) async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([fixture.url("small.bin")])
    #expect(try await fixture.offline(["run", "--quiet"]).status == 0)
    let file = try #require(try await fixture.entry(id)).path

    let rm = try await crashing(at: point, fixture, ["rm", id])
    #expect(rm.status == 137, "\(rm.stderrText)")

    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    #expect(!FileManager.default.fileExists(atPath: file))
    #expect(try await fixture.offline(["run", "--quiet"]).status == 0)
    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  /// After a crash between the transfer's end (file renamed, journal complete) and
  /// `downloaded`: the content is still `downloading`, and the next run records it
  /// downloaded from the verified file without fetching it again.
  @Test func aFinishCutShortIsRecordedByTheNextRunWithoutRefetching() async throws {
    let fixture = try QueueFixture()
    let sha = try await TestData.sha256Hex(of: fixture.small)
    let id = try await fixture.addOne([fixture.url("small.bin"), "--sha256", sha])

    let run = try await crashing(at: "finish.beforeDownloaded", fixture, ["run", "--quiet"])
    #expect(run.status == 137, "\(run.stderrText)")
    let left = try #require(try await fixture.entry(id))
    #expect(left.state == "downloading")
    #expect(FileManager.default.contents(atPath: left.path) == fixture.small)

    let again = try await fixture.offline(["run", "--quiet"])
    #expect(again.status == 0, "\(again.stderrText)")
    let done = try #require(try await fixture.entry(id))
    #expect(done.state == "downloaded")
    #expect(try await TestData.sha256Hex(of: URL(fileURLWithPath: done.path)) == sha)
    let fetches = try fixture.nginx.accessLog().filter { $0.uri == "/small.bin" }
    #expect(fetches.count == 1, "\(fetches)")
  }

  /// Pins the crash window of the queue's group commit (issue 14): files that finish near
  /// each other wait for one sync and one transaction, so a crash there catches several at
  /// once. Every one of them stays `downloading`, and the next run records them all from
  /// their verified files without fetching any again.
  @Test func aBatchOfFinishesCutShortIsRecordedByTheNextRunWithoutRefetchingAny() async throws {
    let fixture = try QueueFixture()
    let www = fixture.folder.url.appending(path: "www")
    var ids: [String: String] = [:]
    for index in 0..<6 {
      let body = TestData.bytes(count: 64 << 10, seed: UInt64(300 + index))
      try body.write(to: www.appending(path: "s\(index).bin"))
      let sha = try await TestData.sha256Hex(of: body)
      await ids[try fixture.addOne([fixture.url("s\(index).bin"), "--sha256", sha])] = sha
    }

    let run = try await crashing(
      at: "finish.beforeDownloaded", fixture, ["run", "--quiet", "--parallel", "6"])
    #expect(run.status == 137, "\(run.stderrText)")
    for id in ids.keys { #expect(try await fixture.entry(id)?.state == "downloading") }

    let again = try await fixture.offline(["run", "--quiet"])
    #expect(again.status == 0, "\(again.stderrText)")
    for (id, sha) in ids {
      let done = try #require(try await fixture.entry(id))
      #expect(done.state == "downloaded")
      #expect(try await TestData.sha256Hex(of: URL(fileURLWithPath: done.path)) == sha)
    }
    let fetches = try fixture.nginx.accessLog().filter { $0.uri.hasPrefix("/s") }
    #expect(fetches.count == 6, "\(fetches.map(\.uri))")
  }

  /// After a crash in start-up recovery, between deleting a canceled content's files and
  /// recording it: the following start-up finishes the job.
  @Test func aRecoveryCutShortIsFinishedByTheNextStartUp() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let id = try await partlyDownloaded(fixture)
    #expect(try await crashing(at: "cancel.afterCanceling", fixture, ["cancel", id]).status == 137)

    let list = try await crashing(at: "recovery.afterDeletingFiles", fixture, ["ls"])
    #expect(list.status == 137, "\(list.stderrText)")
    #expect(fixture.leftovers(of: id).isEmpty)

    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    #expect(try await fixture.offline(["run", "--quiet"]).status == 0)
    #expect(try await fixture.entry(id)?.state == "notDownloaded")
  }

  /// Crash points inside `Transfer` (the journal says `finishing`, the rename not done; the
  /// rename done, `complete` not recorded): the next `offline get` must finish the file
  /// without fetching it again.
  @Test(arguments: ["transfer.afterFinishing", "transfer.afterRename"])
  func aFileCutShortAroundItsRenameIsFinishedByTheNextGet(point: String) async throws {
    let fixture = try QueueFixture()
    let output = fixture.folder.url.appending(path: "out.bin").path
    let sha = try await TestData.sha256Hex(of: fixture.small)
    let arguments = ["get", fixture.url("small.bin"), "-o", output, "--sha256", sha, "--quiet"]
    #expect(try await crashing(at: point, fixture, arguments).status == 137)

    let again = try await fixture.offline(arguments)
    #expect(again.status == 0, "\(again.stderrText)")
    #expect(FileManager.default.contents(atPath: output) == fixture.small)
    #expect(try fixture.nginx.accessLog().filter { $0.uri == "/small.bin" }.count == 1)
  }

  // Moved from VerifyCommandTests.
  @Test func aRepairKilledAfterWritingAChunkIsFinishedByTheNextRepair() async throws {
    let (fixture, path) = try await VerifyCommandTests.downloaded()
    try FileDamage.flipByte(at: 100, of: path)
    try FileDamage.flipByte(at: 6 << 20, of: path)
    let crashed = try await OfflineBinary.run(
      ["repair", "big"], store: fixture.store, crashingAt: "repair.afterChunkWrite")
    #expect(crashed.status == 137)
    #expect(FileManager.default.contents(atPath: path) != fixture.large, "killed halfway")
    let again = try await fixture.offline(["repair", "big"])
    #expect(again.status == 0, "\(again.stderrText)")
    #expect(FileManager.default.contents(atPath: path) == fixture.large)
    #expect(try await fixture.offline(["verify", "big"]).status == 0)
  }

  // Moved from IndexRebuildTests.
  /// A SIGKILL right after the index records a cancel or a delete (crash points
  /// `cancel.afterCanceling`, `delete.afterIntent`), then the index lost: the manifests were
  /// removed before the index changed, so the rebuild brings neither content back.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aCancelOrDeleteCutShortIsNotBroughtBackByARebuild() async throws {
    let origin = try await IndexRebuildTests.Origin()
    try await origin.add([origin.url("a.bin"), "--id", "a"])
    try #require(try await origin.offline(["run", "--quiet"]).status == 0)
    try await origin.add([origin.url("c.bin"), "--id", "queued"])
    for (point, arguments) in [
      ("delete.afterIntent", ["rm", "a"]), ("cancel.afterCanceling", ["cancel", "queued"]),
    ] {
      let crashed = try await OfflineBinary.run(arguments, store: origin.store, crashingAt: point)
      #expect(crashed.status == 137, "\(point): \(crashed.stderrText)")
    }

    try await origin.damageIndex(truncating: false)

    let after = try await origin.listing()
    #expect(after.entries.isEmpty, "\(after.entries)")
  }
}

/// A folder of a stream moved away and replaced by a symbolic link while the stream
/// downloads (issue 36, item 7). The folders were checked once before the run, but each
/// piece, part and playlist was then opened and renamed by its path, so the pieces that came
/// after the swap went through the link into the folder it names. The process stops itself
/// at a named point (`OFFLINEKIT_STOP_POINT`, SIGSTOP) for the swap, then goes on on SIGCONT:
/// a real process.
@Suite(
  .ownThreads,
  .serialized, .enabled(if: FFmpeg.isAvailable),
  .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "needs /proc"), .timed)
struct StopPointTests {
  /// Pins issue 36, item 7 during a run: a link swapped in for `video/` after the run made
  /// and checked its folders, before any piece (the `pieces.afterFolders` stop point), got
  /// every piece written into the folder it names. Now the pieces go into the folder the
  /// run opened, nothing goes through the link, and the run fails naming it.
  @Test func aFolderLinkedAwayDuringARunIsNeverWrittenThrough() async throws {
    let origin = try await HLSOrigin(.tsVariants)
    let work = try TemporaryDirectory()
    let victim = try LinkedSubfolderTests.Victim(in: work)
    let store = work.url.appending(path: "store")
    let offline = { (arguments: [String]) async throws in
      try await OfflineBinary.run(["--store", store.path] + arguments, timeout: 60)
    }
    #expect(try await offline(["add", origin.url.absoluteString, "--id", "s"]).status == 0)
    let inside = store.appending(path: "content/s/video")
    var environment = ProcessInfo.processInfo.environment
    environment["OFFLINEKIT_STOP_POINT"] = "pieces.afterFolders"
    let run = try OfflineBinary.start(["run", "--quiet"], store: store, environment: environment)
    defer { run.killIfRunning() }
    let stopped = await QueueFixture.poll(seconds: 30) { Self.isStopped(run.processIdentifier) }
    try #require(stopped, "the run never reached its stop point")
    let moved = work.url.appending(path: "moved")
    try FileManager.default.moveItem(at: inside, to: moved)
    try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: victim.folder)
    kill(run.processIdentifier, SIGCONT)

    await #expect(run.waitBounded(seconds: 60) == 1)
    victim.expectUntouched()
    let listed = try await offline(["ls", "--json"])
    #expect(
      listed.stdoutText.contains("\(inside.path) is a symbolic link where a folder"),
      "\(listed.stdoutText)")
    // The pieces went on into the folder the run opened, wherever it was moved.
    let pieces = try FileManager.default.contentsOfDirectory(atPath: moved.path)
    #expect(pieces.contains { $0.hasSuffix(".ts") }, "\(pieces)")
  }

  /// Whether process `pid` is stopped (`T` in `/proc/<pid>/stat`).
  static func isStopped(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
  }

  /// Pins issue 36, item 7 for a stream's repair: the content's folder moved out of the
  /// store and replaced by a link to a folder holding a `pack.ts` of its own, after the
  /// repair found the damaged segment of its pack (the `repair.beforeMendingPacks` stop
  /// point), had the segment written into that other `pack.ts`. Now the repair writes into
  /// the folder it opened and fails naming the link.
  @Test func aContentFolderLinkedAwayDuringAPackRepairIsNeverWrittenThrough() async throws {
    let stream = try await StreamRepairCommandTests.Downloaded(.pack)
    let index = stream.folder.appending(path: "index.m3u8")
    let range = try #require(try OfflineSegments.list(index)[2].range)
    let pack = stream.folder.appending(path: "pack.ts").path
    try FileDamage.flipByte(at: Int64(range.lowerBound + 10), of: pack)
    let victim = stream.www.url.appending(path: "victim")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    let decoy = Data(count: try Data(contentsOf: URL(filePath: pack)).count)
    try decoy.write(to: victim.appending(path: "pack.ts"))
    var environment = ProcessInfo.processInfo.environment
    environment["OFFLINEKIT_STOP_POINT"] = "repair.beforeMendingPacks"
    let repair = try OfflineBinary.start(
      ["repair", "c"], store: stream.store, environment: environment)
    defer { repair.killIfRunning() }
    let stopped = await QueueFixture.poll(seconds: 30) { Self.isStopped(repair.processIdentifier) }
    try #require(stopped, "the repair never reached its stop point")
    try FileManager.default.moveItem(
      at: stream.folder, to: stream.www.url.appending(path: "moved"))
    try FileManager.default.createSymbolicLink(at: stream.folder, withDestinationURL: victim)
    kill(repair.processIdentifier, SIGCONT)

    await #expect(repair.waitBounded(seconds: 60) == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["pack.ts"])
    #expect(try Data(contentsOf: victim.appending(path: "pack.ts")) == decoy, "written through")
  }
}
