import Foundation
import TestSupport
import TestTiming
import Testing

/// SIGINT (Ctrl-C) and SIGTERM delivered to a running `offline` process: what is pinned is
/// the signal itself (its handler, the exit code 128 + signal, the partial data and journal
/// kept), so these need a real process. A stopped command inside the test process is
/// ``InProcessRun/stop(seconds:)``.
@Suite(.ownThreads, .timed) struct ProcessSignalTests {
  // Moved from GetCommandTests.
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalStopsCleanlyAndTheSameCommandResumes(signal: Int32, code: Int32) async throws {
    let setup = try GetCommandTests.Setup(size: 16 << 20, options: .init(limitRate: "8m"))
    let url = setup.nginx.url("/file.bin").absoluteString
    let output = setup.out.appending(path: "file.bin").path
    let process = try OfflineBinary.start(
      ["get", url, "-o", output, "--quiet"], store: setup.store)
    let deadline = Date().addingTimeInterval(20)
    while (try? FileManager.default.attributesOfItem(atPath: output + ".part")[.size] as? Int ?? 0)
      ?? 0 < 1 << 20,
      Date() < deadline
    {
      try? await Task.sleep(for: .microseconds(20_000))
    }
    kill(process.processIdentifier, signal)
    await #expect(process.waitBounded(seconds: 10) == code)
    let kept =
      try FileManager.default.attributesOfItem(atPath: output + ".part")[.size] as? Int ?? 0
    #expect(kept > 0)

    let rerun = try await InProcessOffline.run(
      ["--store", setup.store.path, "get", url, "-o", output, "--json"], timeout: 60)
    #expect(rerun.status == 0)
    #expect(rerun.stdoutText.contains("\"offset\":\(kept)"))
    #expect(FileManager.default.contents(atPath: output) == setup.body)
  }

  // Moved from QueueRunTests.
  @Test func sigintSuspendsKeepingPartialDataAndResumeFinishesWithARangeRequest() async throws {
    let fixture = try QueueFixture(limitRate: "2m")
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
}
