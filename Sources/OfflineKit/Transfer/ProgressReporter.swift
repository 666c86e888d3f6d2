import Foundation
import Synchronization

/// Sends a transfer's progress events from its own task while a request runs, so user code
/// never runs on the network thread. The rate is smoothed (an exponential moving average
/// over the ticks) so the time left does not jump about.
final class ProgressReporter: Sendable {
  private let sink: TransferSink
  private let interval: Duration
  private let onEvent: @Sendable (Transfer.Event) -> Void
  private let rate = RateEstimator()

  init(
    sink: TransferSink, interval: Duration, onEvent: @escaping @Sendable (Transfer.Event) -> Void
  ) {
    self.sink = sink
    self.interval = interval
    self.onEvent = onEvent
  }

  /// Reports every `interval` until the task is cancelled.
  func run() async {
    reportNow()
    while !Task.isCancelled {
      do {
        try await Task.sleep(for: interval)
      } catch {
        return
      }
      reportNow()
    }
  }

  /// Reports a pending start-over, then the current progress.
  func reportNow() {
    if let reason = sink.pendingRestart.withLock({ pending in
      defer { pending = nil }
      return pending
    }) {
      rate.reset()
      onEvent(.restarted(Transfer.RestartReason(reason)))
    }
    let bytes = sink.progressBytes.load(ordering: .relaxed)
    let total = sink.progressTotal.load(ordering: .relaxed)
    onEvent(
      .progress(
        TransferProgress(
          bytes: bytes, total: total < 0 ? nil : total, bytesPerSecond: rate.update(bytes: bytes))))
  }
}
