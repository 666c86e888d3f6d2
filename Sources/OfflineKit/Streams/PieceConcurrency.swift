/// How many pieces of a stream (HLS or DASH) are fetched at once: a decision made from what
/// the responses show, as a value with no I/O (``PieceRunner`` carries it out).
///
/// On a link where each request waits a round trip, the pieces in flight set the speed:
/// 1000 requests at 40 ms take 5 s eight at a time, 0.6 s sixty-four at a time. The rules:
///
/// - **Start** at ``Configuration/start`` (eight), at most ``Configuration/maxConnections``,
///   until a response says which protocol the origin speaks.
/// - **HTTP/2**: every piece is a stream on one connection, so go to
///   ``Configuration/http2Streams`` (64; libcurl does not tell us the server's
///   `SETTINGS_MAX_CONCURRENT_STREAMS`, and opens a second connection past it).
///   ``Configuration/maxConnections`` does not cap streams: one connection is open.
/// - **HTTP/1.1**: each piece in flight is a connection of its own. After each window of
///   completed pieces (as many as are in flight, and at least
///   ``Configuration/minimumWindow`` long, so the scheduling noise of a loaded machine does
///   not decide), compare the bytes per second received in
///   it (every body byte, pieces still running included, so pieces that finish in batches
///   do not skew it) with the window before: while they rose by at least ``Configuration/gain`` (10 %), open
///   ``Configuration/step`` more, up to ``Configuration/http1Connections`` (16) or
///   ``Configuration/maxConnections``. The first window that does not gain gives the
///   extra connections back and settles there.
/// - **Back off** on 429 or 503 at once, and on other failures (a 5xx, a lost connection)
///   when ``Configuration/errorsToBackOff`` of them came with fewer clean finishes between
///   them than pieces in flight: halve the
///   pieces in flight (at least one) and stop growing. The pieces in flight at a backoff
///   were sent before it and meet the same overload: no failure halves it again until as
///   many responses as were in flight came since. After a backoff, every `2 × limit`
///   pieces finished without a failure add one piece again, up to one less than where the
///   backoff came (an overload at one piece at a time leaves that where it was).
///
/// Each event method returns the new ``limit``; the runner starts pieces while fewer than
/// that are in flight and lets extra ones finish when it falls.
struct PieceConcurrency: Sendable, Equatable {
  /// The protocol the origin answered with.
  enum Wire: Sendable, Equatable {
    /// No response yet.
    case unknown
    /// HTTP/1.0 or HTTP/1.1: one request at a time per connection.
    case http1
    /// HTTP/2 (or later): many streams on one connection.
    case http2

    /// The wire of a response head's version ("HTTP/1.1", "HTTP/2").
    init(version: String) {
      self = version.hasPrefix("HTTP/1") ? .http1 : .http2
    }
  }

  /// The bounds of the decision.
  struct Configuration: Sendable, Equatable {
    /// Pieces in flight before the protocol is known.
    var start = 8
    /// The most streams in flight on HTTP/2.
    var http2Streams = 64
    /// The most connections to the origin on HTTP/1.1.
    var http1Connections = 16
    /// A cap on connections (`--max-connections`), nil for none beyond the bounds above.
    var maxConnections: Int?
    /// Connections added on HTTP/1.1 after a window that gained.
    var step = 4
    /// The rise in bytes per second a window must show for HTTP/1.1 to keep growing.
    var gain = 0.10
    /// The shortest measuring window on HTTP/1.1.
    var minimumWindow = Duration.milliseconds(250)
    /// Failures other than 429 and 503, close together, that make it back off.
    var errorsToBackOff = 3
  }

  /// What happened when a piece's request was answered.
  enum Answer: Sendable, Equatable {
    /// A response head with this status came.
    case status(Int)
    /// The request failed without a response (refused, cut, stalled, garbled).
    case failure
  }

  /// The bounds.
  let configuration: Configuration
  /// Pieces to keep in flight now.
  private(set) var limit: Int
  /// The protocol the origin answered with.
  private(set) var wire = Wire.unknown
  /// Whether HTTP/1.1 stopped probing for more connections (no gain, or a backoff).
  private(set) var settled = false

  /// Bytes and time of the current measuring window (HTTP/1.1 probing).
  private var window = Window()
  /// Bytes per second of the last full window, nil before one.
  private var lastRate: Double?
  /// The limit before the last step up, to go back to when the step gained nothing.
  private var beforeStep: Int?
  /// Responses since the last backoff; another needs ``answersBeforeNextBackOff`` of them.
  private var answersSinceBackOff = Int.max
  /// The pieces in flight (at most the limit) at the last backoff: their answers were
  /// decided before it.
  private var answersBeforeNextBackOff = 0
  /// Failures (not 429/503) since the last backoff, forgotten after `limit` clean finishes.
  private var errors = 0
  /// Where the last backoff came from; recovery stays below it.
  private var backedOffFrom: Int?
  /// Pieces finished without a failure since the last backoff or recovery step.
  private var cleanFinishes = 0

  private struct Window: Sendable, Equatable {
    var pieces = 0
    /// Bytes received (all pieces together) when the window opened.
    var startBytes: Int64 = 0
    var startedAt: Duration?
  }

  /// A decision with `configuration`'s bounds, at its start.
  init(_ configuration: Configuration = Configuration()) {
    self.configuration = configuration
    limit = max(1, min(configuration.start, configuration.maxConnections ?? .max))
  }

  /// The most in flight the protocol allows (HTTP/2 streams, HTTP/1.1 connections).
  private var bound: Int {
    switch wire {
    case .unknown: max(1, min(configuration.start, configuration.maxConnections ?? .max))
    case .http2: max(1, configuration.http2Streams)
    case .http1: max(1, min(configuration.http1Connections, configuration.maxConnections ?? .max))
    }
  }

  /// A piece's request was answered with `version` (the first answer decides the wire).
  mutating func didLearn(version: String) -> Int {
    guard wire == .unknown else { return limit }
    wire = Wire(version: version)
    if wire == .http2, backedOffFrom == nil { limit = bound }
    limit = min(limit, bound)
    return limit
  }

  /// A piece's request got `answer`; 429, 503 and repeated failures make it back off.
  mutating func didAnswer(_ answer: Answer) -> Int {
    if answersSinceBackOff < Int.max { answersSinceBackOff += 1 }
    switch answer {
    case .status(429), .status(503):
      backOff()
    case .status(let code) where code >= 500:
      failed()
    case .failure:
      failed()
    case .status:
      break
    }
    return limit
  }

  /// A piece finished `at` this time since the download began, when the pieces had
  /// `received` body bytes in all (a running sum that never goes down).
  mutating func didFinish(received: Int64, at time: Duration) -> Int {
    recover()
    guard wire == .http1, !settled else { return limit }
    guard let startedAt = window.startedAt else {
      // The first finish opens the window: its pieces ran while connections were opened.
      window = Window(startBytes: received, startedAt: time)
      return limit
    }
    window.pieces += 1
    let seconds = (time - startedAt) / .seconds(1)
    guard window.pieces >= limit, time - startedAt >= configuration.minimumWindow, seconds > 0
    else { return limit }
    let rate = Double(received - window.startBytes) / seconds
    window = Window(startBytes: received, startedAt: time)
    defer { lastRate = rate }
    if let lastRate, rate < lastRate * (1 + configuration.gain) {
      // The step bought nothing: give the connections back and stay.
      if let beforeStep { limit = beforeStep }
      settled = true
      return limit
    }
    guard limit < bound else {
      settled = true
      return limit
    }
    beforeStep = limit
    limit = min(bound, limit + max(1, configuration.step))
    return limit
  }

  private mutating func failed() {
    errors += 1
    cleanFinishes = 0
    if errors >= configuration.errorsToBackOff { backOff() }
  }

  private mutating func backOff() {
    cleanFinishes = 0
    // The pieces sent before the last backoff answer the same way: one halving per flight.
    guard answersSinceBackOff >= answersBeforeNextBackOff else { return }
    errors = 0
    answersSinceBackOff = 0
    answersBeforeNextBackOff = limit
    // One piece at a time cannot go lower, and says nothing about where it can go back to.
    if limit > 1 { backedOffFrom = limit }
    limit = max(1, limit / 2)
    settled = true
    window = Window()
  }

  /// Counts a clean finish: as many in a row as are in flight forget earlier failures;
  /// after a backoff, twice as many add one piece.
  private mutating func recover() {
    cleanFinishes += 1
    if cleanFinishes >= limit { errors = 0 }
    guard let from = backedOffFrom else { return }
    guard cleanFinishes >= 2 * limit, limit + 1 < from else { return }
    cleanFinishes = 0
    limit += 1
  }
}
