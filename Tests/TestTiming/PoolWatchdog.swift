import Foundation
import Synchronization

/// Watches the concurrency pool while timed tests run, and writes down each time it stalled:
/// a job handed to the pool that waited more than ``threshold`` to start, with the tests
/// running at that moment (the suspects: a stalled pool is one whose two threads are all
/// blocked by tests). It appends to the file that `OFFLINEKIT_TEST_STALLS` names two lines
/// per stall: `stalled`, a tab and the running tests' identifiers joined by `" | "`, once
/// the threshold is passed; `ended after N s` when the job ran. `scripts/test` prints them
/// at the end of a run.
///
/// Why: a CI run once had tests of a second each end after 111 s together, and two bounded
/// tests fail, with nothing in the log to say what held the pool.
///
/// It runs on a thread of its own (never the pool it watches), at most one job a second.
enum PoolWatchdog {
  /// The variable naming the file to append to; without it nothing is watched.
  static let variable = "OFFLINEKIT_TEST_STALLS"

  /// A job that waits longer than this to start is a stall.
  static let threshold: Duration = .seconds(5)

  private static let running = Mutex<[String: Int]>([:])
  private static let path = ProcessInfo.processInfo.environment[variable]

  /// Starts the watch once per process, when the file is named.
  static let started: Bool = {
    guard let path, !path.isEmpty else { return false }
    let thread = Thread { watch(writingTo: path) }
    thread.name = "pool-watchdog"
    thread.start()
    return true
  }()

  /// Notes that `test` began to run (several cases of one test may run at once).
  static func didStart(_ test: String) {
    running.withLock { $0[test, default: 0] += 1 }
  }

  /// Notes that a case of `test` ended.
  static func didEnd(_ test: String) {
    running.withLock { tests in
      let left = (tests[test] ?? 1) - 1
      tests[test] = left > 0 ? left : nil
    }
  }

  private static func watch(writingTo path: String) {
    let clock = ContinuousClock()
    while true {
      let ran = Flag()
      let sent = clock.now
      Task.detached { ran.value.store(true, ordering: .releasing) }
      var told = false
      while !ran.value.load(ordering: .acquiring) {
        Thread.sleep(forTimeInterval: 0.05)
        if !told, sent.duration(to: clock.now) > threshold {
          // Said at once, with the tests running now: a run that hangs or is killed in the
          // stall still leaves the line.
          told = true
          let suspects = running.withLock { Array($0.keys).sorted() }
          append("stalled\t\(suspects.joined(separator: " | "))\n", to: path)
        }
      }
      if told {
        let seconds = sent.duration(to: clock.now).components.seconds
        append("ended after \(seconds) s\n", to: path)
      }
      Thread.sleep(forTimeInterval: 1)
    }
  }

  /// Set by the job once the pool ran it.
  private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
  }

  private static func append(_ line: String, to path: String) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var bytes = Array(line.utf8)
    _ = write(descriptor, &bytes, bytes.count)
  }
}
