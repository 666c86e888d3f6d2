import Foundation
import TestSupport
import Testing

/// The process dies (`_exit(137)`, as a SIGKILL would end it) at each named step of the
/// state changes, armed with `OFFLINEKIT_CRASH_POINT` (debug builds only); the next command
/// must bring the content to a state that can go on, with nothing lost and nothing back
/// from the dead. Rows "crash points" of docs/Reliability.md.
@Suite(.ownThreads) struct FaultCrashPointTests {
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
}
