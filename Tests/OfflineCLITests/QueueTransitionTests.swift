import Foundation
import TestSupport
import TestTiming
import Testing

/// Every legal row of the transition table of `OfflineState`, driven through the CLI. The
/// `run` that pause and cancel meet works inside the test process (``InProcessRun``): the
/// rows are the point, not the process; a run in another process meets commands in
/// `SeveralProcessesTests`.
@Suite(.ownThreads, .timed) struct QueueTransitionTests {
  @Test func addQueuesAndRunDownloadsTheVerifiedFileToItsPath() async throws {
    let fixture = try QueueFixture()
    let sha = try await TestData.sha256Hex(of: fixture.small)
    let id = try await fixture.addOne([fixture.url("small.bin"), "--sha256", sha])

    let queued = try #require(try await fixture.entry(id))
    #expect(queued.state == "downloading")
    #expect(queued.reason == "queued")

    let run = try await fixture.offline(["run", "--quiet"])
    #expect(run.status == 0, "\(run.stderrText)")
    let done = try #require(try await fixture.entry(id))
    #expect(done.state == "downloaded")
    #expect(done.bytes == fixture.small.count)
    #expect(done.reason == nil)

    let path = try await fixture.offline(["path", id])
    #expect(path.status == 0)
    let file = URL(fileURLWithPath: path.stdoutText.trimmingCharacters(in: .newlines))
    #expect(file.path == done.path)
    #expect(try await TestData.sha256Hex(of: file) == sha)
    #expect(FileManager.default.contents(atPath: file.path) == fixture.small)
  }

  @Test func rmDeletesTheFileThenDownloadQueuesItAgainAndForgetRemovesIt() async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([fixture.url("small.bin")])
    #expect(try await fixture.offline(["run", "--quiet"]).status == 0)
    let file = try #require(try await fixture.entry(id)).path
    #expect(FileManager.default.fileExists(atPath: file))

    let rm = try await fixture.offline(["rm", id])
    #expect(rm.status == 0, "\(rm.stderrText)")
    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    #expect(!FileManager.default.fileExists(atPath: file))

    let download = try await fixture.offline(["download", id])
    #expect(download.status == 0, "\(download.stderrText)")
    let queued = try #require(try await fixture.entry(id))
    #expect(queued.state == "downloading")
    #expect(queued.reason == "queued")

    #expect(try await fixture.offline(["cancel", id]).status == 0)
    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    let forget = try await fixture.offline(["forget", id])
    #expect(forget.status == 0, "\(forget.stderrText)")
    #expect(try await fixture.list().isEmpty)
  }

  @Test func pauseStopsTheRunningDownloadKeepingThePartAndResumeQueuesItAgain() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (id, run) = try await fixture.largeDownloadUnderWay(moreThan: 256 << 10)
    defer { run.stopIfRunning() }

    let pause = try await fixture.offline(["pause", id])
    #expect(pause.status == 0, "\(pause.stderrText)")
    let paused = try #require(try await fixture.waitFor(id, state: "suspended", seconds: 2))
    #expect(paused.state == "suspended")
    // Nothing is left downloading, so the run ends once it has stopped the transfer.
    await #expect(run.finish(seconds: 10)?.status == 0)
    let kept = try #require(fixture.partSize(paused))
    #expect(kept > 0 && kept < fixture.large.count)
    #expect(try await fixture.entry(id)?.state == "suspended")

    let resume = try await fixture.offline(["resume", id])
    #expect(resume.status == 0, "\(resume.stderrText)")
    let resumed = try #require(try await fixture.entry(id))
    #expect(resumed.state == "downloading")
    #expect(resumed.reason == "queued")
    #expect(fixture.partSize(resumed) == kept)
  }

  @Test func cancelWhileRunWorksTheDownloadDeletesTheContentFolder() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (id, run) = try await fixture.largeDownloadUnderWay(moreThan: 256 << 10)
    defer { run.stopIfRunning() }

    let cancel = try await fixture.offline(["cancel", id])
    #expect(cancel.status == 0, "\(cancel.stderrText)")
    await #expect(
      try fixture.waitFor(id, state: "notDownloaded", seconds: 5)?.state == "notDownloaded")
    await #expect(run.finish(seconds: 10)?.status == 0)
    #expect(fixture.leftovers(of: id).isEmpty, "\(fixture.leftovers(of: id)) still there")
    #expect(try await fixture.entry(id)?.bytes == 0)

    // Nothing of the canceled transfer (part, journal offset) may survive: a new download
    // starts from byte 0 and yields the right file.
    #expect(try await fixture.offline(["download", id]).status == 0)
    try await fixture.runExpectingLargeDownloaded(id)
    #expect(try await fixture.nginx.accessLog(minimumCount: 2).last?.range == nil)
  }

  @Test func cancelOfASuspendedContentWithoutARunDeletesItsPartialData() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (id, run) = try await fixture.largeDownloadUnderWay(moreThan: 128 << 10)
    defer { run.stopIfRunning() }
    #expect(try await fixture.offline(["pause", id]).status == 0)
    await #expect(run.finish(seconds: 10)?.status == 0)
    #expect(!fixture.leftovers(of: id).isEmpty)

    let cancel = try await fixture.offline(["cancel", id])
    #expect(cancel.status == 0, "\(cancel.stderrText)")
    #expect(try await fixture.entry(id)?.state == "notDownloaded")
    #expect(fixture.leftovers(of: id).isEmpty)
  }

  @Test func aPermanentFailureSuspendsWithTheLastErrorAndRunExits1() async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([fixture.url("missing.bin")])
    let run = try await fixture.offline(["run", "--quiet"])
    #expect(run.status == 1)
    let failed = try #require(try await fixture.entry(id))
    #expect(failed.state == "suspended")
    #expect(failed.lastError?.description.contains("404") == true, "\(failed.object)")
  }
}
