import Foundation
import TestSupport
import Testing

/// `offline run` working the queue while other processes change it, and stopping on SIGINT.
@Suite(.ownThreads) struct QueueRunTests {
  @Test func aRunningRunDownloadsWhatAnotherProcessAdds() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (slow, run) = try await fixture.runningLargeDownload(moreThan: 0)
    defer { run.killIfRunning() }

    let added = try await fixture.addOne([fixture.url("small.bin")])
    let done = try await fixture.waitFor(added, state: "downloaded", seconds: 20)
    #expect(done?.state == "downloaded")
    #expect(run.isRunning)
    if let done {
      #expect(FileManager.default.contents(atPath: done.path) == fixture.small)
    }

    #expect(try await fixture.offline(["cancel", slow]).status == 0)
    await #expect(run.waitBounded(seconds: 10) == 0)
  }

  @Test func sigintSuspendsKeepingPartialDataAndResumeFinishesWithARangeRequest() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (id, run) = try await fixture.runningLargeDownload(moreThan: 512 << 10)
    defer { run.killIfRunning() }

    kill(run.processIdentifier, SIGINT)
    await #expect(run.waitBounded(seconds: 10) == 130)
    let stopped = try #require(try await fixture.entry(id))
    #expect(stopped.state == "suspended")
    let kept = try #require(fixture.partSize(stopped))
    #expect(kept > 0)

    #expect(try await fixture.offline(["resume", id]).status == 0)
    let done = try await fixture.runExpectingLargeDownloaded(id)
    #expect(fixture.partSize(done) == nil)

    let requests = try await fixture.nginx.accessLog(minimumCount: 2)
    #expect(requests.count == 2)
    #expect(requests.first?.range == nil)
    let resumed = try #require(requests.last)
    #expect(resumed.status == 206)
    let start = resumed.range.flatMap { Int($0.dropFirst("bytes=".count).prefix { $0 != "-" }) }
    #expect(start != nil && start! > 0 && start! <= kept, "Range: \(resumed.range ?? "none")")
    #expect(Int(resumed.bodyBytesSent) == fixture.large.count - (start ?? 0))
  }

  @Test func aSecondRunOnTheSameStoreIsRefusedWhileOneWorks() async throws {
    let fixture = try QueueFixture(limitRate: "1m")
    let (id, run) = try await fixture.runningLargeDownload(moreThan: 0)
    defer { run.killIfRunning() }

    let second = try await fixture.offline(["run", "--quiet"])
    #expect(second.status == 1)
    #expect(second.stderrText.contains("\(run.processIdentifier)"), "\(second.stderrText)")

    #expect(try await fixture.offline(["cancel", id]).status == 0)
    await #expect(run.waitBounded(seconds: 10) == 0)
  }

  // Pins a bug: opening the store (`OfflineManager.init`, so every `ls`, `add`, `pause`...)
  // takes the runner lock for its crash recovery, so an `offline run` starting at that moment
  // failed with "Another process is running the queue" although no process was running it.
  @Test func aRunIsNotRefusedBecauseAnotherCommandIsOpeningTheStore() async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([fixture.url("small.bin")])
    #expect(try await fixture.offline(["pause", id]).status == 0)
    let listing = try Process.run(
      URL(fileURLWithPath: "/bin/sh"),
      arguments: [
        "-c",
        "end=$(($(date +%s) + 10)); while [ $(date +%s) -lt $end ]; do"
          + " '\(OfflineBinary.path)' --store '\(fixture.store.path)' ls >/dev/null; done",
      ])
    defer { listing.killIfRunning() }

    var refusals: [String] = []
    for _ in 0..<60 where refusals.isEmpty && listing.isRunning {
      let run = try await fixture.offline(["run", "--quiet"])
      if run.status != 0 { refusals.append(run.stderrText) }
    }
    #expect(refusals.isEmpty, "a run was refused: \(refusals)")
  }
}
