/// How many connections a segmented download of one file runs: a decision made from the
/// bytes per second each window shows, as a value with no I/O (``SegmentedTransfer`` carries
/// it out: each connection added claims the second half of a busy range, split past the
/// request in flight, ``RangeBoard``).
///
/// An origin that caps each request (nginx `limit_rate 40m`, a CDN's per-connection limit)
/// sets the speed by the connections open: eight at 40 MiB/s take 3.2 s for 1 GiB, sixteen
/// 1.6 s, if the disk keeps up. An origin without a cap gains nothing from more. The rules:
///
/// - **Start** at ``Configuration/start``, at most ``Configuration/maximum``; when the two
///   are equal nothing ever changes (a fixed `--connections n`).
/// - **First window**: its rate is the reference; open ``Configuration/step`` more.
/// - **Later windows**: the connections added since the last reference must have raised the
///   rate by at least ``Configuration/gain`` of what as many average connections of the
///   reference brought (with a gain of 0.5, four added to eight at 320 MiB/s must bring
///   80 MiB/s more). While they do, the window is the new reference and ``step`` more open,
///   up to ``maximum``. The first window that does not gain settles the count where it is;
///   the extra connections are not closed (they cost the origin nothing more than the ones
///   before them, and closing one mid-range would cut a request).
/// - **Too little left**: when fewer than ``Configuration/minimumRemainingPerConnection``
///   bytes would be left for each connection after a step, the count settles: a new range
///   would be over before it paid for its request.
///
/// ``didMeasure(bytesPerSecond:remaining:)`` returns the new ``limit``; the caller opens
/// connections until that many run.
struct RangeConcurrency: Sendable {
  /// The bounds of the decision.
  struct Configuration: Sendable, Equatable {
    /// Connections at the start.
    var start: Int
    /// The most connections (`--max-connections`).
    var maximum: Int
    /// Connections added after a window that gained.
    var step = 4
    /// The share of an average connection's rate each added one must bring.
    var gain = 0.5
    /// Bytes still to come, per connection after a step, below which no more are opened.
    var minimumRemainingPerConnection: Int64 = 8 << 20
  }

  let configuration: Configuration
  /// Connections to run now.
  private(set) var limit: Int
  /// Whether the count no longer changes.
  private(set) var settled: Bool
  /// The window the last step was judged against: its connections and bytes per second.
  private var reference: (connections: Int, rate: Double)?

  init(_ configuration: Configuration) {
    self.configuration = configuration
    limit = max(1, min(configuration.start, configuration.maximum))
    settled = limit >= configuration.maximum
  }

  /// Takes the bytes per second of the window that just ended (with ``limit`` connections
  /// running through it) and the bytes not yet written; returns the connections to run next.
  mutating func didMeasure(bytesPerSecond rate: Double, remaining: Int64) -> Int {
    guard !settled else { return limit }
    if let reference {
      let added = Double(limit - reference.connections)
      let expected = configuration.gain * added * reference.rate / Double(reference.connections)
      guard rate - reference.rate >= expected, rate > reference.rate else {
        settled = true
        return limit
      }
    }
    let next = min(configuration.maximum, limit + configuration.step)
    guard remaining / Int64(next) >= configuration.minimumRemainingPerConnection else {
      settled = true
      return limit
    }
    reference = (limit, rate)
    limit = next
    settled = next >= configuration.maximum
    return limit
  }
}
