import OfflineLocks

/// A budget of received bytes per second, shared by every request that carries it.
///
/// Give one limiter to every request of a download to cap that download, and the same
/// limiter to the requests of several downloads to cap them together (a request may carry
/// several: a per-download cap and a cap for everything). ``CurlTransport`` paces each
/// request against its limiters: before it takes a body part it checks that every limiter
/// has budget left, and when one has not it pauses that request (the server is held back by
/// TCP, so memory stays flat) until the budget is there again, checking at least four times
/// a second so that a new rate takes effect at once.
///
/// The budget refills continuously and holds at most a twentieth of a second's worth (and
/// never less than one 16 KiB read), so a download that was paused or idle does not burst
/// when it goes on. Over a run the rate received is the cap, give or take one read per
/// request.
///
/// ```swift
/// let everything = RateLimiter(try ByteRate(parsing: "20M"))
/// var request = HTTPRequest(url: url)
/// request.rateLimiters = [everything]
/// // later, from any thread:
/// everything.setRate(nil)  // no limit any more
/// ```
///
/// Thread-safe: the state sits in a `Locked`.
public final class RateLimiter: Sendable, Equatable {
  private struct Bucket {
    var rate: ByteRate?
    /// Requests with ``HTTPRequest/hasRatePriority`` that carry this budget now.
    var priorityRequests = 0
    /// The requests waiting for budget, by their turn (``RateTurn``), with the instant each
    /// said it would ask again: the oldest turn among those still asking goes first.
    var waiters: [UInt64: ContinuousClock.Instant] = [:]
    /// Bytes that may be received now; negative while received bytes are still owed.
    var tokens: Double
    /// When `tokens` was last brought up to date.
    var stamp: ContinuousClock.Instant
  }

  private let bucket: Locked<Bucket>

  /// The longest a request is paused before it checks again, so that a rate raised or
  /// removed while it waits takes effect within this time.
  static let longestPause = Duration.milliseconds(250)

  /// Creates a limiter with `rate`, nil for no limit (until ``setRate(_:)`` sets one).
  public init(_ rate: ByteRate?) {
    let now = ContinuousClock.now
    bucket = Locked(Bucket(rate: rate, tokens: Self.capacity(rate), stamp: now))
  }

  /// The current cap, nil for none.
  public var rate: ByteRate? {
    bucket.withLock { $0.rate }
  }

  /// Changes the cap for every request carrying this limiter, including those under way;
  /// nil removes it. Whatever budget was saved is kept only up to the new rate's
  /// allowance, so a raised cap does not burst either.
  public func setRate(_ rate: ByteRate?) {
    let now = ContinuousClock.now
    bucket.withLock { bucket in
      Self.refill(&bucket, at: now)
      bucket.rate = rate
      bucket.tokens = min(bucket.tokens, Self.capacity(rate))
      if rate == nil { bucket.tokens = 0 }
    }
  }

  /// Two limiters are equal when they are the same budget.
  public static func == (lhs: RateLimiter, rhs: RateLimiter) -> Bool {
    lhs === rhs
  }

  /// Counts `count` received bytes against the budget.
  func charge(_ count: Int, at now: ContinuousClock.Instant = .now) {
    bucket.withLock { bucket in
      guard bucket.rate != nil else { return }
      Self.refill(&bucket, at: now)
      bucket.tokens -= Double(count)
    }
  }

  /// How long a request carrying this limiter should wait before it receives again: zero
  /// when the budget allows it now, else the time until the bytes owed are paid off (at
  /// most ``longestPause``). A request without priority waits ``longestPause`` at a time
  /// while one with priority carries the budget: that one gets all of it.
  ///
  /// With a `turn` (``RateTurn``), requests that wait take turns: while an older turn still
  /// waits, a younger one waits too, a read's worth longer for each turn before it. Without,
  /// the requests that woke together raced for the budget, and the same ones won every
  /// time: under a 15 kB/s cap, an init section of 765 bytes got nothing in 12 s while the
  /// segments after it landed.
  func pause(
    at now: ContinuousClock.Instant = .now, priority: Bool = false, turn: UInt64? = nil
  ) -> Duration {
    bucket.withLock { bucket in
      guard let rate = bucket.rate else { return .zero }
      if !priority, bucket.priorityRequests > 0 { return Self.longestPause }
      Self.refill(&bucket, at: now)
      var ahead = 0
      if let turn {
        // A waiter that did not ask again when it said it would has gone (it ended, or its
        // other budgets hold it): it holds nobody back.
        if !bucket.waiters.isEmpty {
          bucket.waiters = bucket.waiters.filter { now <= $0.value + Self.waiterSlack }
          ahead = bucket.waiters.keys.count { $0 < turn }
        }
      }
      if bucket.tokens >= 0, ahead == 0 {
        if let turn { bucket.waiters[turn] = nil }
        return .zero
      }
      let owed = max(0, -bucket.tokens) + Double(ahead) * Self.readSize
      let seconds = owed / Double(rate.bytesPerSecond)
      let wait = max(
        .milliseconds(1),
        min(Self.longestPause, .nanoseconds(Int64((seconds * 1e9).rounded(.up)))))
      if let turn { bucket.waiters[turn] = now + wait }
      return wait
    }
  }

  /// The request with `turn` received, or ended: it waits no more.
  func leave(turn: UInt64) {
    bucket.withLock { _ = $0.waiters.removeValue(forKey: turn) }
  }

  /// How late a waiter may ask again and keep its place: libcurl's loop wakes paused
  /// transfers a little after their time.
  static let waiterSlack = Duration.milliseconds(100)

  /// The bytes one read of libcurl's brings at most, the budget a turn ahead takes.
  private static let readSize = 16_384.0

  /// A request with priority starts carrying this budget (``RatePriorityHold``).
  func beginPriority() {
    bucket.withLock { $0.priorityRequests += 1 }
  }

  /// A request with priority no longer carries this budget.
  func endPriority() {
    bucket.withLock { $0.priorityRequests = max(0, $0.priorityRequests - 1) }
  }

  /// The most budget that is saved up: a twentieth of a second at `rate`, and never less
  /// than one read of libcurl's (16 KiB), so that a low rate still moves.
  static func capacity(_ rate: ByteRate?) -> Double {
    guard let rate else { return 0 }
    return max(16_384, Double(rate.bytesPerSecond) / 20)
  }

  private static func refill(_ bucket: inout Bucket, at now: ContinuousClock.Instant) {
    defer { bucket.stamp = max(bucket.stamp, now) }
    guard let rate = bucket.rate, now > bucket.stamp else { return }
    let elapsed = bucket.stamp.duration(to: now)
    let seconds = elapsed.inSeconds
    bucket.tokens = min(capacity(rate), bucket.tokens + seconds * Double(rate.bytesPerSecond))
  }
}

extension RateLimiter {
  /// The budget that `options.rateLimit` asks for, as a one-element list (none when it asks
  /// for no limit): one per content, shared by all its requests.
  public static func budgets(for options: RequestOptions) -> [RateLimiter] {
    options.rateLimit.map { [RateLimiter($0)] } ?? []
  }
}

/// Holds the budgets of a request with ``HTTPRequest/hasRatePriority`` for as long as the
/// transport's call for it lives: made with the call, released with it.
final class RatePriorityHold: Sendable {
  private let limiters: [RateLimiter]

  /// Begins the priority of a request carrying `limiters`, when it has priority; nil when not.
  init?(_ request: HTTPRequest) {
    guard request.hasRatePriority, !request.rateLimiters.isEmpty else { return nil }
    limiters = request.rateLimiters
    for limiter in limiters { limiter.beginPriority() }
  }

  deinit {
    for limiter in limiters { limiter.endPriority() }
  }
}

/// A request's place among the requests waiting for the budgets it carries: it waits for
/// the older turns that still wait, so requests that share a cap take turns and none is
/// starved.
///
/// A request takes a turn the first time a budget holds it back, keeps it until it
/// receives, and takes a new one (the youngest) the next time it is held back: requests
/// waiting together are served in turn, the one that has waited longest first. Turns are
/// numbered for the whole process, so a request waiting on two budgets has the same place in
/// both. Made with the transport's call and released with it.
final class RateTurn: Sendable {
  private let limiters: [RateLimiter]
  private let priority: Bool
  private let turn = Locked<UInt64?>(nil)
  private static let turns = Locked<UInt64>(0)

  /// The turn of a request carrying `request`'s budgets; nil when it carries none.
  init?(_ request: HTTPRequest) {
    guard !request.rateLimiters.isEmpty else { return nil }
    limiters = request.rateLimiters
    priority = request.hasRatePriority
  }

  deinit {
    if let turn = turn.withLock({ $0 }) {
      for limiter in limiters { limiter.leave(turn: turn) }
    }
  }

  /// How long the request waits before it receives again (zero: receive now).
  func pause(at now: ContinuousClock.Instant = .now) -> Duration {
    let current = turn.withLock { turn in
      if let turn { return turn }
      let next = Self.turns.withLock { count in
        count += 1
        return count
      }
      turn = next
      return next
    }
    let wait = limiters.reduce(Duration.zero) {
      max($0, $1.pause(at: now, priority: priority, turn: current))
    }
    if wait == .zero {
      turn.withLock { $0 = nil }
      for limiter in limiters { limiter.leave(turn: current) }
    }
    return wait
  }
}
