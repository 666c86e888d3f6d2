import OfflineLocks

/// A stop asked of a live recording from outside its task (a cancel's handler), awaited by
/// one watcher in the recording's task group. Its state sits behind a lock; the
/// continuation is resumed outside it.
final class LiveStopSignal: Sendable {
  private struct State {
    var stopped = false
    var cancelled = false
    var waiter: CheckedContinuation<Bool, Never>?
  }
  private let state = Locked(State())

  /// Whether the stop was asked.
  var wasStopped: Bool { state.withLock { $0.stopped } }

  /// Asks for the stop; the watcher wakes with `true`. Later calls do nothing.
  func stop() {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard !state.stopped else { return nil }
      state.stopped = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: true)
  }

  /// Waits for the stop: `true` when it came, `false` when the waiting task was cancelled
  /// (the recording ended some other way). One waiter at a time.
  func wait() async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Bool? in
          if state.stopped { return true }
          if state.cancelled { return false }
          state.waiter = continuation
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        state.cancelled = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: false)
    }
  }
}
