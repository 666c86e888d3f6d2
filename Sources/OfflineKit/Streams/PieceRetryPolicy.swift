import Foundation
import OfflineHTTP

/// Tries one piece of a stream again in the same run when it failed for a reason that often
/// goes away: a media playlist, a segment, an init section or a key answering 403, 404, 408,
/// 410, 429 or a 5xx, or a connection that was refused, cut, stalled or garbled. Other
/// failures (a refused redirect, a key of the wrong size, a full disk, a cancel) end at once.
///
/// yt-dlp retries each fragment up to 10 times and ffmpeg retries segments: one bad answer
/// in a long stream must not fail it. A piece that keeps failing still fails the run, with
/// the error of its last try, which names it.
///
/// The stream's own URL is not a piece: like the URL of a plain file, a 404 there fails at
/// once.
///
/// When the stream's URL can be refreshed (``refreshesURL``: the manager's ``URLRefresh``
/// hook, or `get --refresh-command`), a piece answered 401, 403 or 410 is not tried again:
/// a signed URL that expired refuses every later try too, so the attempt ends at once with
/// that status and the refresh runs first, instead of after minutes of backoff. Every
/// decision is ``decision(after:failures:)``, a value.
package struct PieceRetryPolicy: Sendable {
  /// What follows a piece's failed try.
  public enum Decision: Sendable, Equatable {
    /// Tried again after a wait.
    case tryAgain
    /// The run fails with the error.
    case fail
    /// The attempt ends with the error (401, 403 or 410) so that the stream's URL is
    /// refreshed first; its pieces on disk are kept.
    case endForRefresh
  }

  /// The longest wait between two tries of a piece, also the cap on `Retry-After`: with the
  /// defaults a piece that never comes fails the run after about 75 s of waiting
  /// (1 + 2 + 4 + 8 + 6 × 10 s), not minutes.
  public static let maximumDelay: Duration = .seconds(10)

  /// Retries after the first try.
  public var retries: Int
  /// The wait before the first retry; it doubles after each one.
  public var initialDelay: Duration
  /// Told about each retry before its wait.
  public var onRetry: (@Sendable (PieceRetryPolicy.Retry) -> Void)?
  /// Whether the stream's URL can be refreshed when it stops working; then a piece answered
  /// 401, 403 or 410 ends the attempt at once (``Decision/endForRefresh``).
  public var refreshesURL: Bool
  /// The clock the waits between tries sleep on (the system's by default); the piece
  /// engine's transfers, progress ticks and time measurements read it too.
  public var clock: any Timekeeping

  /// Creates a policy; `options` carries ``StreamConfiguration/pieceRetries`` and
  /// ``StreamConfiguration/pieceRetryDelay``; `refreshesURL` says whether a refresh is
  /// possible; the waits sleep on `clock`.
  public init(
    _ options: StreamConfiguration, refreshesURL: Bool = false,
    onRetry: (@Sendable (PieceRetryPolicy.Retry) -> Void)? = nil,
    clock: any Timekeeping = SystemClock.shared
  ) {
    retries = options.pieceRetries
    initialDelay = options.pieceRetryDelay
    self.refreshesURL = refreshesURL
    self.onRetry = onRetry
    self.clock = clock
  }

  /// What follows a try that failed with `error` after `failures` earlier failures of the
  /// same piece: a refresh when one is possible and the status is one of
  /// ``URLRefresh/statuses`` (401, 403, 410), a retry while
  /// ``isRetryable(_:)`` says so and retries are left, else the run fails.
  public func decision(after error: Transfer.Error, failures: Int) -> Decision {
    if refreshesURL, case .status(let code, _) = error.kind,
      URLRefresh.statuses.contains(code)
    {
      return .endForRefresh
    }
    return Self.isRetryable(error) && failures < retries ? .tryAgain : .fail
  }

  /// Whether a piece that failed with `error` is tried again: what ``Transfer/Error`` calls
  /// transient (connection trouble, stalls, 408, 429, 5xx), 403, 404 and 410, and a response
  /// that is not valid HTTP (a garbled head).
  public static func isRetryable(_ error: Transfer.Error) -> Bool {
    if error.isTransient { return true }
    switch error.kind {
    case .status(let code, _): return [403, 404, 410].contains(code)
    case .network(let failure): return failure.kind == .protocolViolation
    default: return false
    }
  }

  /// The wait before retry number `retry` (from 1), or what `Retry-After` asked for.
  func delay(beforeRetry retry: Int, retryAfter: Duration?) -> Duration {
    RetryPolicy(
      maximumAttempts: retries + 1, initialDelay: initialDelay,
      maximumDelay: max(initialDelay, Self.maximumDelay)
    ).delay(afterFailures: retry, retryAfter: retryAfter)
  }

  /// Runs `body` until it succeeds, fails for a reason that is not retried (or that asks
  /// for a refresh, or for which `endsAtOnce` is true: another source can serve it), or has
  /// failed `retries + 1` times; then throws its last error.
  ///
  /// - Throws: The last ``Transfer/Error`` of `body`, or `canceled` (for `url` and
  ///   `destination`) when the task is cancelled during a wait.
  func run<T: Sendable>(
    url: URL, destination: String,
    endsAtOnce: (Transfer.Error) -> Bool = { _ in false },
    _ body: () async throws(Transfer.Error) -> T
  ) async throws(Transfer.Error) -> T {
    var failures = 0
    while true {
      do {
        return try await body()
      } catch {
        guard decision(after: error, failures: failures) == .tryAgain, !endsAtOnce(error),
          !Task.isCancelled
        else {
          throw error
        }
        failures += 1
        let wait = delay(beforeRetry: failures, retryAfter: error.retryAfter)
        onRetry?(
          PieceRetryPolicy.Retry(
            url: url, retry: failures, retries: retries, delay: wait, error: error))
        do {
          try await clock.sleep(for: wait)
        } catch {
          throw Transfer.Error(.canceled, url: url, destination: destination)
        }
      }
    }
  }
}
