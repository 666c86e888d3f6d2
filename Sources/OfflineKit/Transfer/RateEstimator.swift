import Foundation
import OfflineHTTP
import OfflineLocks

/// A smoothed transfer rate: an exponential moving average of the rate between updates, so
/// the time left does not jump about. Safe to update from any thread.
final class RateEstimator: Sendable {
  /// Creates an estimator with no history, measuring time with `clock`.
  init(clock: any Timekeeping = SystemClock.shared) {
    self.clock = clock
    state = Locked(State(lastTime: clock.instant))
  }

  private struct State {
    var lastBytes: Int64?
    var lastTime: ContinuousClock.Instant
    var rate: Double = 0
  }

  private let clock: any Timekeeping
  private let state: Locked<State>

  /// Records `bytes` (a running total) now and returns the smoothed rate in bytes per second.
  /// Updates closer than 50 ms to the previous one keep the rate as it was.
  func update(bytes: Int64) -> Double {
    state.withLock { state in
      let now = clock.instant
      guard let last = state.lastBytes else {
        state.lastBytes = bytes
        state.lastTime = now
        return state.rate
      }
      let elapsed = (now - state.lastTime).inSeconds
      guard elapsed > 0.05 else { return state.rate }
      let instant = Double(max(0, bytes - last)) / elapsed
      state.rate = state.rate == 0 ? instant : state.rate * 0.7 + instant * 0.3
      state.lastBytes = bytes
      state.lastTime = now
      return state.rate
    }
  }

  /// Forgets the history (after a start-over), keeping nothing of the old rate's base.
  func reset() {
    state.withLock { $0.lastBytes = nil }
  }
}
