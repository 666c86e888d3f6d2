import Foundation

/// When to try a failed download again: exponential backoff with jitter, a server's
/// `Retry-After` honoured up to a cap, and a limit on attempts in a row without progress.
public struct RetryPolicy: Sendable, Equatable {
  /// Attempts in a row that may fail without receiving a byte; then the content is suspended
  /// with its last error.
  public var maximumAttempts: Int
  /// The wait after the first failure; it doubles after each one.
  public var initialDelay: Duration
  /// The longest wait, also the cap on `Retry-After`.
  public var maximumDelay: Duration

  /// Creates a policy.
  public init(
    maximumAttempts: Int = 5, initialDelay: Duration = .seconds(1),
    maximumDelay: Duration = .seconds(60)
  ) {
    self.maximumAttempts = maximumAttempts
    self.initialDelay = initialDelay
    self.maximumDelay = maximumDelay
  }

  /// The wait before attempt `failures + 1`, after `failures` failures in a row.
  public func delay(afterFailures failures: Int, retryAfter: Duration?) -> Duration {
    if let retryAfter { return min(retryAfter, maximumDelay) }
    let base = initialDelay * (1 << min(max(failures - 1, 0), 20))
    return min(base * Double.random(in: 0.75...1.25), maximumDelay)
  }
}
