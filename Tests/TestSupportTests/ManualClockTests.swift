import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

/// The manual clock tests drive time with: it moves only when advanced, wakes exactly the
/// sleepers that are due, and lets a test wait until the code under test has parked.
@Suite(.timed) struct ManualClockTests {
  @Test func timeMovesOnlyWhenTheTestAdvancesIt() async throws {
    let start = Date(timeIntervalSince1970: 1_000_000)
    let clock = ManualClock(now: start)
    let instant = clock.instant
    await Task.yield()
    #expect(clock.now == start)
    #expect(clock.instant == instant)
    clock.advance(by: .seconds(90))
    #expect(clock.now == start.addingTimeInterval(90))
    #expect(clock.instant == instant + .seconds(90))
    clock.advance(to: instant + .seconds(60))  // in the past: nothing moves
    #expect(clock.instant == instant + .seconds(90))
  }

  @Test func advanceWakesExactlyTheSleepersWhoseDeadlinePassed() async throws {
    let clock = ManualClock()
    let woken = Locked<[Int]>([])
    let tasks = [1, 2, 3].map { seconds in
      Task {
        try await clock.sleep(for: .seconds(seconds))
        woken.withLock { $0.append(seconds) }
      }
    }
    try await clock.waitForSleepers(count: 3)
    #expect(clock.sleepers == [.seconds(1), .seconds(2), .seconds(3)])
    clock.advance(by: .milliseconds(2500))
    try await tasks[0].value
    try await tasks[1].value
    #expect(woken.withLock { $0.sorted() } == [1, 2])
    #expect(clock.sleepers == [.milliseconds(500)])
    clock.advance(by: .milliseconds(499))
    #expect(clock.sleepers == [.milliseconds(1)])
    #expect(woken.withLock { $0.count } == 2)
    clock.advance(by: .milliseconds(1))
    try await tasks[2].value
    #expect(woken.withLock { $0.sorted() } == [1, 2, 3])
    #expect(clock.sleepers.isEmpty)
  }

  @Test func aDeadlineThatPassedReturnsAtOnce() async throws {
    let clock = ManualClock()
    try await clock.sleep(until: clock.instant)
    try await clock.sleep(for: .zero)
    try await clock.sleep(until: clock.instant - .seconds(5))
    #expect(clock.sleepers.isEmpty)
  }

  @Test func cancellingASleeperEndsItsSleepWithCancellationError() async throws {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .seconds(3600)) }
    try await clock.waitForSleepers(count: 1)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleepers.isEmpty)
    let cancelledFirst = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
  }

  @Test func waitingForASleeperOfAGivenLengthMatchesOnlyThatOne() async throws {
    let clock = ManualClock()
    let short = Task { try await clock.sleep(for: .seconds(1)) }
    let long = Task { try await clock.sleep(for: .seconds(5)) }
    try await clock.waitForSleepers { $0.contains(.seconds(5)) }
    try await clock.waitForSleepers(count: 2)
    clock.advance(by: .seconds(1))
    try await short.value
    try await clock.waitForSleepers { $0 == [.seconds(4)] }
    clock.advance(by: .seconds(4))
    try await long.value
  }

  @Test func aWaitForSleepersThatNeverComeFailsWithinItsTimeout() async throws {
    let clock = ManualClock()
    let started = ContinuousClock.now
    await #expect(throws: ManualClock.WaitTimedOut.self) {
      try await clock.waitForSleepers(count: 1, timeout: .milliseconds(100))
    }
    #expect(ContinuousClock.now - started < .seconds(5))
  }
}
