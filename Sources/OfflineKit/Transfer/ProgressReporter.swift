import Foundation
import OfflineHTTP
import OfflineLocks
import Synchronization

/// Sends a transfer's progress events from its own task while a request runs, so user code
/// never runs on the network thread. The rate is smoothed (an exponential moving average
/// over the ticks) so the time left does not jump about.
///
/// The ticking task starts only when a request has been receiving for one interval
/// (``startTicking()``, called by the sink): most pieces of a stream take a millisecond, and a
/// task with a timer for each of them was a measurable share of a 1000-segment download.
final class ProgressReporter: Sendable {
  private struct Ticker {
    var task: Task<Void, Never>?
    var stopped = false
  }

  private let sink: TransferSink
  private let interval: Duration
  private let clock: any Timekeeping
  private let onEvent: @Sendable (Transfer.Event) -> Void
  private let rate: RateEstimator
  private let ticker = Locked(Ticker())

  /// Reports every `interval` of `clock`'s time once ticking.
  init(
    sink: TransferSink, interval: Duration, clock: any Timekeeping,
    onEvent: @escaping @Sendable (Transfer.Event) -> Void
  ) {
    self.sink = sink
    self.interval = interval
    self.clock = clock
    self.rate = RateEstimator(clock: clock)
    self.onEvent = onEvent
  }

  /// Starts reporting every interval from a task of its own, at once. Does nothing when the
  /// ticks already run or ``stop()`` was called. Callable from any thread.
  func startTicking() {
    ticker.withLock { state in
      guard state.task == nil, !state.stopped else { return }
      state.task = Task { [self] in await tick() }
    }
  }

  /// Stops the ticks, if they started, and waits until the last one has been sent.
  func stop() async {
    let task = ticker.withLock { state in
      state.stopped = true
      return state.task
    }
    task?.cancel()
    await task?.value
  }

  private func tick() async {
    while !Task.isCancelled {
      reportNow()
      do {
        try await clock.sleep(for: interval)
      } catch {
        return
      }
    }
  }

  /// Reports a pending start-over, then the current progress.
  func reportNow() {
    if let reason = sink.pendingRestart.withLock({ pending in
      defer { pending = nil }
      return pending
    }) {
      rate.reset()
      onEvent(.restarted(reason))
    }
    let bytes = sink.progressBytes.load(ordering: .relaxed)
    let total = sink.progressTotal.load(ordering: .relaxed)
    onEvent(
      .progress(
        OfflineProgress(
          bytes: bytes, total: total < 0 ? nil : total, bytesPerSecond: rate.update(bytes: bytes))))
  }
}
