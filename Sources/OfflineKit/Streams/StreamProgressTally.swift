/// The progress of a stream's pieces as a value: the runner tells it what happens to each
/// piece (started, bytes received, finished) and asks it for an ``StreamProgress``. No
/// I/O and no clock, so each rule is a unit test.
struct StreamProgressTally: Sendable {
  /// What the plan says about one piece.
  struct Piece: Sendable, Equatable {
    /// The exact length when the plan knows it (a byte-range slice), else nil.
    var exactBytes: Int64?
    /// The size guessed from the playlist (`BANDWIDTH` × duration, or a slice's length).
    var plannedBytes: Int64
    /// Media segments in the piece (0 for an init section).
    var segments: Int
    /// Seconds of media in the piece (0 for an init section).
    var duration: Double
    /// The media playlist (variant or rendition) the piece belongs to, as an index.
    var rendition: Int

    /// The piece `piece` of a plan.
    init(_ piece: StreamPiece) {
      self.init(
        exactBytes: piece.slice?.length, plannedBytes: piece.estimatedBytes,
        segments: piece.segments, duration: piece.duration, rendition: piece.rendition)
    }

    /// A piece described by hand.
    init(
      exactBytes: Int64? = nil, plannedBytes: Int64, segments: Int = 1, duration: Double = 1,
      rendition: Int = 0
    ) {
      self.exactBytes = exactBytes
      self.plannedBytes = plannedBytes
      self.segments = segments
      self.duration = duration
      self.rendition = rendition
    }
  }

  /// What is known of one piece so far.
  private struct Seen: Sendable {
    /// The most bytes it has had on disk in this run: a piece that starts over keeps
    /// them until it passes them again, so the bytes reported never go down.
    var bytes: Int64 = 0
    /// Its length: the plan's, the one its response stated, or the one it finished with.
    var size: Int64?
    var finished = false
  }

  private let pieces: [Piece]
  private var seen: [Seen]
  /// The fraction of the last report, which the next one never goes below.
  private var lastFraction = 0.0

  /// A tally of `pieces`, none started.
  init(pieces: [Piece]) {
    self.pieces = pieces
    seen = pieces.map { Seen(size: $0.exactBytes) }
  }

  /// Piece `index` started; `total` is its length when known.
  mutating func pieceStarted(_ index: Int, total: Int64?) {
    if let total, !seen[index].finished { seen[index].size = total }
  }

  /// Piece `index` has `bytes` on disk; `total` is its length once its response said it.
  mutating func pieceProgress(_ index: Int, bytes: Int64, total: Int64?) {
    guard !seen[index].finished else { return }
    seen[index].bytes = max(seen[index].bytes, bytes)
    if let total { seen[index].size = total }
  }

  /// Piece `index` is complete with `length` bytes.
  mutating func pieceFinished(_ index: Int, length: Int64) {
    seen[index] = Seen(bytes: length, size: length, finished: true)
  }

  /// The bytes so far against the best total known: exact sizes where known, and for each
  /// other piece its rendition's observed bytes per second of media times its duration (the
  /// playlist's guess while nothing of the rendition is known).
  ///
  /// The fraction never goes down: when the estimate rises, the total reported is held
  /// below it, and marked an estimate, until the bytes catch up. It is 1 only when every
  /// piece has finished.
  mutating func progress() -> StreamProgress {
    let rates = bytesPerSecond()
    var bytes: Int64 = 0
    var estimate: Int64 = 0
    var allKnown = true
    var allFinished = true
    for (piece, seen) in zip(pieces, seen) {
      bytes += seen.bytes
      allFinished = allFinished && seen.finished
      if let size = seen.size {
        estimate += max(size, seen.bytes)
      } else {
        allKnown = false
        let guess =
          piece.duration > 0 ? rates[piece.rendition].map { Int64($0 * piece.duration) } : nil
        estimate += max(guess ?? piece.plannedBytes, seen.bytes)
      }
    }
    var total = max(estimate, allFinished ? bytes : bytes + 1)
    if bytes > 0, Double(bytes) / Double(total) < lastFraction {
      total = Int64((Double(bytes) / lastFraction).rounded(.down))
      while total > 1, Double(bytes) / Double(total) < lastFraction { total -= 1 }
      total = max(total, allFinished ? bytes : bytes + 1)
    }
    if total > 0 { lastFraction = max(lastFraction, Double(bytes) / Double(total)) }
    return StreamProgress(
      bytes: bytes, total: total, totalIsEstimate: !allKnown || total != estimate,
      segmentsDone: zip(pieces, seen).reduce(0) { $0 + ($1.1.finished ? $1.0.segments : 0) },
      segmentsPlanned: pieces.reduce(0) { $0 + $1.segments })
  }

  /// Bytes per second of media of each rendition, from the pieces of media whose sizes are
  /// known (duration-weighted: their bytes over their seconds); nil where none is.
  private func bytesPerSecond() -> [Int: Double] {
    var sizes: [Int: (bytes: Int64, seconds: Double)] = [:]
    for (piece, seen) in zip(pieces, seen) where piece.duration > 0 {
      guard let size = seen.size else { continue }
      let sum = sizes[piece.rendition] ?? (0, 0)
      sizes[piece.rendition] = (sum.bytes + max(size, seen.bytes), sum.seconds + piece.duration)
    }
    return sizes.mapValues { Double($0.bytes) / $0.seconds }
  }
}
