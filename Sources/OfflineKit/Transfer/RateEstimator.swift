import Foundation
import OfflineLocks

/// A smoothed transfer rate: an exponential moving average of the rate between updates, so
/// the time left does not jump about. Safe to update from any thread.
final class RateEstimator: Sendable {
  /// Creates an estimator with no history.
  init() {}

  private struct State {
    var lastBytes: Int64?
    var lastTime = ContinuousClock.now
    var rate: Double = 0
  }

  private let state = Locked(State())

  /// Records `bytes` (a running total) now and returns the smoothed rate in bytes per second.
  /// Updates closer than 50 ms to the previous one keep the rate as it was.
  func update(bytes: Int64) -> Double {
    state.withLock { state in
      let now = ContinuousClock.now
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
