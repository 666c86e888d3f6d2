import Foundation
import TestTiming
import Testing

@testable import TestSupport

/// Issue 39: `swift test` without `--no-parallel` deadlocked here; both threads of Swift's pool
/// sat in `ProcessRunner.run`'s semaphore while what the children waited for needed the pool.
@Suite(.timed) struct ProcessRunnerTests {
  /// Pins the deadlock: more children awaited at once than the pool has threads, each
  /// waiting for a file that a task on the pool writes only once all of them run. With a
  /// blocking wait the pool is full of waiters, the writer never runs and every child
  /// outlives its time limit.
  @Test(.timeLimit(.minutes(1)))
  func childrenAwaitedAtOnceLeaveThePoolFreeForWhatTheyWaitFor() async throws {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-runner")
    let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
    let ready = scratch.file("ready")
    let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
      for index in 0..<count {
        group.addTask {
          let mark = scratch.file("started-\(index)")
          let script = "touch '\(mark.path)'; while [ ! -e '\(ready.path)' ]; do sleep 0.02; done"
          return try await ProcessRunner.run("/bin/sh", ["-c", script], timeout: 20).status
        }
      }
      group.addTask {
        // On the pool: writes the file once every child runs (or after 10 s).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
          let marks = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
          if marks.filter({ $0.hasPrefix("started-") }).count == count { break }
          try await Task.sleep(for: .milliseconds(20))
        }
        try Data().write(to: ready)
        return 0
      }
      var all: [Int32] = []
      for try await status in group { all.append(status) }
      return all
    }
    #expect(statuses == Array(repeating: 0, count: count + 1))
  }

  @Test func collectsTheStatusAndBothOutputs() async throws {
    let output = try await ProcessRunner.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
    #expect(output.status == 3)
    #expect(output.stdoutText == "out\n")
    #expect(output.stderrText == "err\n")
    let killed = try await ProcessRunner.run("/bin/sh", ["-c", "kill -9 $$"])
    #expect(killed.status == 128 + 9)
  }

  @Test func aChildPastItsTimeLimitIsKilledAndTheCallThrows() async throws {
    let start = Date()
    await #expect(throws: TestSupportError.self) {
      try await ProcessRunner.run("/bin/sleep", ["30"], timeout: 0.5)
    }
    #expect(Date().timeIntervalSince(start) < 10)
  }

  @Test func checkedThrowsTheStderrOfAFailure() async throws {
    await #expect(throws: TestSupportError.self) {
      try await ProcessRunner.checked("/bin/sh", ["-c", "echo broken >&2; exit 1"])
    }
    #expect(try await ProcessRunner.checked("/bin/echo", ["fine"]).stdoutText == "fine\n")
  }
}

/// A count shared by the tasks of a test.
private actor Counter {
  private(set) var value = 0
  func add() { value += 1 }
}

/// Fixtures many parallel tests ask for at once are built once, whole.
@Suite(.timed) struct HLSFixtureCacheTests {
  /// Pins one encode per fixture under a parallel run: callers that arrive while the first
  /// builds await its result instead of building again, and all get the finished folder.
  @Test func callersAtOnceAwaitOneBuildAndGetTheFinishedFolder() async throws {
    let key = "cache-test-\(UUID().uuidString.prefix(8))"
    let builds = Counter()
    let folders = try await withThrowingTaskGroup(of: URL.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try await HLSFixtureCache.shared.product(for: key) { staging in
            await builds.add()
            try await Task.sleep(for: .milliseconds(200))
            try Data("whole".utf8).write(to: staging.appendingPathComponent("index.m3u8"))
            return HLSFixture.Product(entry: "index.m3u8")
          }.folder
        }
      }
      var all: [URL] = []
      for try await folder in group { all.append(folder) }
      return all
    }
    #expect(await builds.value == 1)
    #expect(Set(folders).count == 1)
    let text = try String(
      contentsOf: folders[0].appendingPathComponent("index.m3u8"), encoding: .utf8)
    #expect(text == "whole")
  }

  /// A failed build leaves nothing behind, and the next call builds again.
  @Test func aFailedBuildIsRetriedByTheNextCall() async throws {
    let key = "cache-fail-\(UUID().uuidString.prefix(8))"
    await #expect(throws: TestSupportError.self) {
      try await HLSFixtureCache.shared.product(for: key) { _ in
        throw TestSupportError.unexpectedOutput(command: "build", output: "failed on purpose")
      }
    }
    let built = try await HLSFixtureCache.shared.product(for: key) { _ in
      HLSFixture.Product(entry: "index.m3u8")
    }
    #expect(built.product.entry == "index.m3u8")
  }
}
