import Foundation

/// A source of time that downloads read and sleep on: the wall time, a monotonic instant,
/// and sleeping until an instant.
///
/// Everything OfflineKit decides by time reads the clock it was given, never the system's
/// directly: poll intervals, retry and backoff delays, progress and checkpoint intervals,
/// waits for storage, stall windows, a signed URL's expiry, `Retry-After` dates and cache
/// staleness. ``SystemClock`` is the default; a test hands in a clock that moves only when
/// told to, so it never sleeps to make time pass.
///
/// ```swift
/// let clock: any Timekeeping = SystemClock.shared
/// let deadline = clock.instant + .seconds(2)
/// try await clock.sleep(until: deadline)  // throws CancellationError when cancelled
/// print(clock.now)  // the wall time, two seconds later
/// ```
///
/// A clock is a class (`AnyObject`), so configurations that hold one compare it by
/// identity. Its members may be called from any thread or task.
public protocol Timekeeping: AnyObject, Sendable {
  /// The wall time now: what expiry dates, `Retry-After` dates and stored times compare to.
  var now: Date { get }
  /// The monotonic instant now: what intervals and deadlines are measured with.
  var instant: ContinuousClock.Instant { get }
  /// Suspends the calling task until `deadline` (at once when it has passed).
  ///
  /// - Throws: `CancellationError` when the task is cancelled first.
  func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension Timekeeping {
  /// Suspends the calling task for `duration` of this clock's time.
  ///
  /// - Throws: `CancellationError` when the task is cancelled first.
  public func sleep(for duration: Duration) async throws {
    try await sleep(until: instant + duration)
  }
}
