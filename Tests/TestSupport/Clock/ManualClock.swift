import Foundation
import OfflineHTTP
import Synchronization

/// A ``Timekeeping`` clock for tests: its time moves only when the test calls
/// ``advance(by:)``, so a test never sleeps to make time pass.
///
/// ``advance(by:)`` wakes exactly the sleepers whose deadline has passed, earliest first;
/// ``waitForSleepers(count:timeout:)`` (or its predicate form) waits until the code under
/// test has parked on the clock, so the test advances only then. Those waits are bounded by
/// a real timeout (ten seconds by default), the only real time the clock reads, and fail
/// with ``WaitTimedOut`` naming the sleepers it saw.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(30)) }
/// try await clock.waitForSleepers(count: 1)  // the task is parked on the clock
/// clock.advance(by: .seconds(30))  // wakes it; no real time passed
/// try await task.value
/// ```
public final class ManualClock: Timekeeping {
  /// A wait for sleepers that did not come within its timeout.
  public struct WaitTimedOut: Error, CustomStringConvertible {
    /// Time left of each sleeper when the wait gave up, soonest first.
    public let sleepers: [Duration]
    /// The timeout that passed.
    public let timeout: Duration

    /// Describes the wait and what was sleeping.
    public var description: String {
      "No expected sleeper on the manual clock within \(timeout); sleeping: \(sleepers)"
    }
  }

  private struct Sleeper {
    let deadline: ContinuousClock.Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Watch {
    let condition: @Sendable ([Duration]) -> Bool
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// What a sleep found when it came to park.
  private enum Parking {
    case failed(any Error)
    case due
    /// Parked; these watches now hold.
    case parked([Watch])
  }

  private struct State {
    var offset: Duration = .zero
    var nextID = 0
    var sleepers: [Int: Sleeper] = [:]
    var watches: [Int: Watch] = [:]
    /// Sleeps and watches ended (cancelled, timed out) before they were registered.
    var ended: [Int: any Error] = [:]
  }

  private let startDate: Date
  private let startInstant: ContinuousClock.Instant
  private let state = Mutex(State())

  /// Creates a clock whose wall time starts at `now` (the real time by default) and whose
  /// instant starts at the real monotonic instant; neither moves until ``advance(by:)``.
  public init(now: Date = Date()) {
    startDate = now
    startInstant = ContinuousClock.now
  }

  /// The wall time: the start plus every advance.
  public var now: Date {
    startDate.addingTimeInterval(state.withLock { $0.offset } / .seconds(1))
  }

  /// The monotonic instant: the start plus every advance.
  public var instant: ContinuousClock.Instant {
    startInstant + state.withLock { $0.offset }
  }

  /// How long each parked sleeper still has to sleep, soonest first.
  public var sleepers: [Duration] {
    state.withLock { Self.remaining(in: $0, from: startInstant) }
  }

  /// Parks the calling task until ``advance(by:)`` moves the clock to `deadline`; returns
  /// at once when it has passed.
  ///
  /// - Throws: `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: ContinuousClock.Instant) async throws {
    try Task.checkCancellation()
    let id: Int? = state.withLock { state in
      guard deadline > startInstant + state.offset else { return nil }
      state.nextID += 1
      return state.nextID
    }
    guard let id else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let next: Parking = state.withLock { state in
          if let error = state.ended.removeValue(forKey: id) { return .failed(error) }
          // The clock may have moved since the deadline was checked.
          guard deadline > startInstant + state.offset else { return .due }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return .parked(Self.satisfiedWatches(in: &state, from: startInstant))
        }
        switch next {
        case .failed(let error): continuation.resume(throwing: error)
        case .due: continuation.resume()
        case .parked(let watches): watches.forEach { $0.continuation.resume() }
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state in
        guard let sleeper = state.sleepers.removeValue(forKey: id) else {
          state.ended[id] = CancellationError()
          return nil as Sleeper?
        }
        return sleeper
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration` and wakes every sleeper whose deadline is now
  /// reached, earliest deadline first (in the order they slept for equal deadlines).
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "a manual clock does not go back")
    let (woken, watches) = state.withLock { state in
      state.offset += duration
      let now = startInstant + state.offset
      let due = state.sleepers.filter { $0.value.deadline <= now }
        .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
      for (id, _) in due { state.sleepers[id] = nil }
      return (due.map(\.value.continuation), Self.satisfiedWatches(in: &state, from: startInstant))
    }
    woken.forEach { $0.resume() }
    watches.forEach { $0.continuation.resume() }
  }

  /// Moves the clock forward to `deadline` (nothing when it has passed), waking sleepers as
  /// ``advance(by:)`` does.
  public func advance(to deadline: ContinuousClock.Instant) {
    advance(by: max(.zero, instant.duration(to: deadline)))
  }

  /// Waits until at least `count` tasks are parked on the clock, at most `timeout` of real
  /// time.
  ///
  /// - Throws: ``WaitTimedOut`` when they do not come in time; `CancellationError`.
  public func waitForSleepers(count: Int = 1, timeout: Duration = .seconds(10)) async throws {
    try await waitForSleepers(timeout: timeout) { $0.count >= count }
  }

  /// Waits until `condition` holds for the time left of the parked sleepers (soonest
  /// first), at most `timeout` of real time: `{ $0.contains(.seconds(5)) }` waits for a
  /// sleeper that has five seconds left.
  ///
  /// - Throws: ``WaitTimedOut`` when it does not hold in time; `CancellationError`.
  public func waitForSleepers(
    timeout: Duration = .seconds(10), where condition: @escaping @Sendable ([Duration]) -> Bool
  ) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    // Real time, only as a bound on a wait that should end at once.
    let timer = Task { [weak self] in
      try? await Task.sleep(for: timeout)
      guard let self, !Task.isCancelled else { return }
      self.endWatch(id, WaitTimedOut(sleepers: self.sleepers, timeout: timeout))
    }
    defer { timer.cancel() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let outcome: Result<Bool, any Error> = state.withLock { state in
          if let error = state.ended.removeValue(forKey: id) { return .failure(error) }
          if condition(Self.remaining(in: state, from: startInstant)) { return .success(true) }
          state.watches[id] = Watch(condition: condition, continuation: continuation)
          return .success(false)
        }
        switch outcome {
        case .failure(let error): continuation.resume(throwing: error)
        case .success(true): continuation.resume()
        case .success(false): break
        }
      }
    } onCancel: {
      endWatch(id, CancellationError())
    }
  }

  private func endWatch(_ id: Int, _ error: any Error) {
    let watch = state.withLock { state in
      guard let watch = state.watches.removeValue(forKey: id) else {
        state.ended[id] = error
        return nil as Watch?
      }
      return watch
    }
    watch?.continuation.resume(throwing: error)
  }

  private static func remaining(in state: State, from start: ContinuousClock.Instant)
    -> [Duration]
  {
    let now = start + state.offset
    return state.sleepers.values.map { now.duration(to: $0.deadline) }.sorted()
  }

  /// Removes and returns the watches whose condition now holds.
  private static func satisfiedWatches(in state: inout State, from start: ContinuousClock.Instant)
    -> [Watch]
  {
    let remaining = remaining(in: state, from: start)
    let met = state.watches.filter { $0.value.condition(remaining) }
    for id in met.keys { state.watches[id] = nil }
    return Array(met.values)
  }
}
