import Foundation

/// The system's clock: `Date()`, `ContinuousClock.now` and `Task.sleep`. The default
/// ``Timekeeping`` of every configuration.
///
/// ```swift
/// let clock = SystemClock.shared
/// try await clock.sleep(for: .milliseconds(250))
/// ```
public final class SystemClock: Timekeeping {
  /// The one system clock; configurations that default to it compare equal.
  public static let shared = SystemClock()

  private init() {}

  /// `Date()`.
  public var now: Date { Date() }

  /// `ContinuousClock.now`.
  public var instant: ContinuousClock.Instant { ContinuousClock.now }

  /// `Task.sleep(until:clock: .continuous)`.
  public func sleep(until deadline: ContinuousClock.Instant) async throws {
    try await Task.sleep(until: deadline, clock: .continuous)
  }
}
