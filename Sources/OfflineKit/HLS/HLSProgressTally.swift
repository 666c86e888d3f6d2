/// The progress of a stream's pieces as a value: the runner tells it what happens to each
/// piece (started, bytes received, finished) and asks it for an ``HLSDownload/Progress``. No
/// I/O and no clock, so each rule is a unit test.
struct HLSProgressTally: Sendable {
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
    init(_ piece: HLSPlan.Piece) {
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

  private let pieces: [Piece]
  private var inFlight: [Int: Int64] = [:]
  private var doneBytes: Int64 = 0
  /// Media segments in the finished pieces.
  private var done = 0
  private var doneWholeActual: Int64 = 0
  private var doneWholeEstimate: Int64 = 0
  private var remainingEstimate: Int64
  private var remainingWhole: Int

  /// A tally of `pieces`, none started.
  init(pieces: [Piece]) {
    self.pieces = pieces
    remainingEstimate = pieces.reduce(0) { $0 + $1.plannedBytes }
    remainingWhole = pieces.filter { $0.exactBytes == nil }.count
  }

  /// A tally of the pieces of `plan`.
  init(plan: HLSPlan) {
    self.init(pieces: plan.pieces.map(Piece.init))
  }

  /// Piece `index` started; `total` is its length when known.
  mutating func pieceStarted(_ index: Int, total: Int64?) {}

  /// Piece `index` has `bytes` on disk; `total` is its length once its response said it.
  mutating func pieceProgress(_ index: Int, bytes: Int64, total: Int64?) {
    inFlight[index] = bytes
  }

  /// Piece `index` is complete with `length` bytes.
  mutating func pieceFinished(_ index: Int, length: Int64) {
    inFlight[index] = nil
    done += pieces[index].segments
    doneBytes += length
    remainingEstimate -= pieces[index].plannedBytes
    if pieces[index].exactBytes == nil {
      remainingWhole -= 1
      doneWholeActual += length
      doneWholeEstimate += pieces[index].plannedBytes
    }
  }

  /// Bytes done and in flight, against the known sizes plus the remaining estimates,
  /// corrected by how far off the estimates of finished whole segments were.
  mutating func progress() -> HLSDownload.Progress {
    let flying = inFlight.values.reduce(0, +)
    let correction =
      doneWholeEstimate > 0 ? Double(doneWholeActual) / Double(doneWholeEstimate) : 1
    let remaining = Int64(Double(remainingEstimate) * correction)
    let bytes = doneBytes + flying
    return HLSDownload.Progress(
      bytes: bytes, total: max(bytes, doneBytes + remaining),
      totalIsEstimate: remainingWhole > 0, segmentsDone: done,
      segmentsPlanned: pieces.reduce(0) { $0 + $1.segments })
  }
}
