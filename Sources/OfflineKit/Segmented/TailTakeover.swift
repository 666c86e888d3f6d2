/// The end game of a download from sources of different speeds, decided as a value with no
/// I/O (``RangeBoard/claimTail(pace:startup:)`` carries it out under the board's lock).
///
/// Once no range is idle and none can be split past its request (the requests in flight
/// ask for every byte left), a slow source's last request would hold the end of the file:
/// at a tenth of the others' speed, its last 1 MiB is a quarter second at 4 MB/s while the
/// fast connections wait. An idle connection at ``pace`` takes over the tail of the request
/// whose time left at its own pace is longest, when that exceeds ``margin`` times what the
/// idle connection needs for the tail (``startup`` plus the tail at ``pace``).
///
/// The slow request is **cut** at the takeover point, not left to race: the point is where
/// it will be when the new request's first byte comes (``startup`` at its pace, at least
/// ``keep``), so it loses almost nothing by the cut, and a slow source has sent little past
/// it while its reader keeps up. (A reader that lags lets the socket fill: nginx's
/// `limit_rate` is an average since the request began and catches up after a pause, 1.08 MB
/// sent for 360 KB read and a 3 s pause; what the socket held past the cut is sent twice.)
/// A race would fetch the whole tail twice by
/// design and need the board to let two requests write the same bytes; a cut keeps every
/// byte written once, each range with one writer, and the journal's ranges as they are.
///
/// A request's pace is the faster of what it brought and its source's measured pace, so a
/// fast source's request that has barely begun (its first bytes late on a loaded machine)
/// is not taken for slow. One with no pace yet is judged after ``stalledAfter`` with no byte.
struct TailTakeover: Sendable, Equatable {
  /// A request in flight, as the end game sees it.
  struct Request: Sendable, Equatable {
    /// Its range's slot on the board.
    var slot: Int
    /// Its range's next byte to write and end.
    var next: Int64
    var end: Int64
    /// Since it went out, and the bytes it wrote in that time.
    var elapsed: Duration
    var brought: Int64
    /// One connection's measured pace of its source, when known.
    var sourcePace: Double?
  }

  /// The idle connection's pace, bytes per second (its source's, measured).
  var pace: Double
  /// How long the idle connection's request takes to bring its first byte.
  var startup: Duration
  /// The least a slow request keeps past its `next` (the board's write grain).
  var keep: Int64

  /// How many times longer the slow request would take than the idle connection, at least,
  /// for a takeover: between two connections of about the same pace nothing moves.
  static let margin = 1.5
  /// A tail shorter than this is not worth a request.
  static let minimumTail: Int64 = 64 << 10
  /// The least a slow request keeps with mirrors, as the board's write grain.
  static let keep: Int64 = 128 << 10
  /// How long a request must have run before what it brought tells its pace.
  static let measuredAfter: Duration = .milliseconds(200)
  /// A request of a source with no measured pace that brought nothing in this long counts
  /// as stalled: any idle connection takes its tail.
  static let stalledAfter: Duration = .seconds(2)

  /// The request to take over and where: its slot and the takeover point (its range's end
  /// moves back there, the rest is the idle connection's); nil when none is worth it.
  func decide(_ requests: [Request]) -> (slot: Int, at: Int64)? {
    guard pace > 0 else { return nil }
    var best: (slot: Int, at: Int64, gain: Double)?
    for request in requests where request.end > request.next {
      let left = Double(request.end - request.next)
      let victimPace = Self.pace(of: request)
      let timeLeft: Double
      let kept: Int64
      if let victimPace {
        timeLeft = left / victimPace
        kept = max(keep, Int64(victimPace * startup.inSeconds))
      } else if request.brought == 0, request.elapsed >= Self.stalledAfter {
        timeLeft = .infinity
        kept = keep
      } else {
        continue  // not measured yet
      }
      let at = request.next + kept
      guard request.end - at >= Self.minimumTail else { continue }
      let need = startup.inSeconds + Double(request.end - at) / pace
      guard timeLeft > Self.margin * need else { continue }
      let gain = timeLeft - need
      if best.map({ gain > $0.gain }) ?? true { best = (request.slot, at, gain) }
    }
    return best.map { ($0.slot, $0.at) }
  }

  /// The pace of `request`: the faster of what it brought (once ``measuredAfter`` passed)
  /// and its source's; nil when neither is known.
  static func pace(of request: Request) -> Double? {
    var observed: Double?
    if request.elapsed >= measuredAfter, request.brought > 0 {
      observed = Double(request.brought) / request.elapsed.inSeconds
    }
    guard let known = request.sourcePace, known > 0 else { return observed }
    return max(observed ?? 0, known)
  }
}
