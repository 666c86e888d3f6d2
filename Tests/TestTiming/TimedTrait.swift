import Foundation
import Testing

/// Records how long each test case's body ran, from when it starts to run to its end, in
/// the file that `OFFLINEKIT_TEST_TIMES` names (one line per case: the test's identifier, a
/// tab, the seconds). `scripts/slowest-suites` reads it.
///
/// Swift Testing's own times (the console, the xUnit file) start a test when it is
/// scheduled: in a run side by side, where at most six tests run at once and the rest wait
/// for a turn, they count the wait too, so every suite looked slow. This trait's time starts
/// inside the turn. It still counts the contention of the tests running beside it.
///
/// With `OFFLINEKIT_TEST_STALLS` set, it also tells the pool's watchdog which tests run
/// (see `PoolWatchdog`).
///
/// ```swift
/// @Suite(.timed) struct ResumeTests { ... }
/// ```
public struct TimedTrait: SuiteTrait, TestTrait, TestScoping {
  /// The variable naming the file to append to; without it nothing is recorded.
  public static let variable = "OFFLINEKIT_TEST_TIMES"

  /// Applies to every test of the suite, one record per test case.
  public var isRecursive: Bool { true }

  /// Runs the test case and appends its time.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let start = ContinuousClock.now
    let watched = PoolWatchdog.started
    let name = "\(test.id)"
    if watched { PoolWatchdog.didStart(name) }
    defer {
      if watched { PoolWatchdog.didEnd(name) }
      Self.record(test, seconds: start.duration(to: .now))
    }
    try await function()
  }

  private static let path = ProcessInfo.processInfo.environment[variable]

  private static func record(_ test: Test, seconds duration: Duration) {
    guard let path, !path.isEmpty else { return }
    let seconds =
      Double(duration.components.seconds)
      + Double(duration.components.attoseconds) / 1e18
    let line = "\(test.id)\t\(seconds)\n"
    // One write with O_APPEND per record: records of tests ending together never interleave.
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var bytes = Array(line.utf8)
    _ = write(descriptor, &bytes, bytes.count)
  }
}

extension Trait where Self == TimedTrait {
  /// Records each test case's running time (see ``TimedTrait``).
  public static var timed: Self { TimedTrait() }
}
