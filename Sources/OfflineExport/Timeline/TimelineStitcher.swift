/// Makes one continuous, monotonic timeline out of a stream whose timestamps jump: at an
/// `EXT-X-DISCONTINUITY`, a timestamp reset or a gap, a stream's timestamps go backwards or leap
/// far ahead, and a muxer refuses them (or a player shows the wrong duration).
///
/// The timeline is cut into epochs. The first stream to leave an epoch (its decode time goes
/// back more than `backwardTolerance`, or forward more than `jumpThreshold`) starts the next
/// one and fixes its shift: the next epoch begins where the latest stream of the last one
/// ended. Every other stream takes the same shift when it reaches that epoch, so audio and
/// video stay in step as they were in the source. A stream that would still overlap its own
/// last packet is nudged forward for that epoch only, so nothing accumulates. Subtitle streams
/// (sparse) never start an epoch; they follow the latest one.
///
/// A value with no I/O: the remuxer hands it each packet's timestamps in its stream's time
/// base and writes what it returns.
struct TimelineStitcher: Sendable {
  /// A time base, seconds per tick as a fraction.
  struct TimeBase: Sendable, Equatable {
    /// The numerator.
    var numerator: Int64
    /// The denominator.
    var denominator: Int64

    func seconds(_ ticks: Int64) -> Double {
      Double(ticks) * Double(numerator) / Double(denominator)
    }

    func ticks(_ seconds: Double) -> Int64 {
      Int64((seconds * Double(denominator) / Double(numerator)).rounded())
    }
  }

  /// The timestamps of one packet, in its stream's time base.
  struct Stamps: Sendable, Equatable {
    /// Presentation time, nil when unknown.
    var pts: Int64?
    /// Decode time, nil when unknown.
    var dts: Int64?
  }

  private struct Track: Sendable {
    var timeBase: TimeBase
    var isSparse: Bool
    var epoch = 0
    var correction: Int64 = 0
    var lastShifted: Int64?
    var lastOutput: Int64?
    var lastEnd: Int64?
    var lastReference: Int64?
    var lastDelta: Int64 = 0
  }

  private var tracks: [Track]
  /// The shift of each epoch, in seconds.
  private var shifts: [Double]
  /// The latest end of any stream in each epoch, shifted, in seconds.
  private var epochEnds: [Double]
  private let jumpThreshold: Double
  private let backwardTolerance: Double

  /// Discontinuities found so far.
  var discontinuities: Int { shifts.count - 1 }

  /// Makes a stitcher for streams with `timeBases`, of which the `sparse` ones (subtitles)
  /// follow the others. The output starts at zero: `startTime` (seconds) is taken off. A
  /// forward jump beyond `jumpThreshold` seconds starts an epoch, as does a backward one
  /// beyond `backwardTolerance`.
  init(
    timeBases: [TimeBase], sparse: [Bool], startTime: Double, jumpThreshold: Double,
    backwardTolerance: Double = 0.5
  ) {
    tracks = zip(timeBases, sparse).map { Track(timeBase: $0, isSparse: $1) }
    shifts = [-startTime]
    epochEnds = [-Double.infinity]
    self.jumpThreshold = jumpThreshold
    self.backwardTolerance = backwardTolerance
  }

  /// The timestamps to write for a packet of stream `index` read with `stamps` and lasting
  /// `duration` ticks (zero when unknown); returns whether it started an epoch.
  mutating func stitch(_ stamps: Stamps, duration: Int64, stream index: Int) -> (
    Stamps, startedEpoch: Bool
  ) {
    var track = tracks[index]
    defer { tracks[index] = track }
    guard let reference = stamps.dts ?? stamps.pts else { return (stamps, false) }
    var startedEpoch = false
    if track.isSparse { track.epoch = shifts.count - 1 }
    var shifted = reference + track.timeBase.ticks(shifts[track.epoch])
    if !track.isSparse, let last = track.lastShifted {
      let step = track.timeBase.seconds(shifted - last)
      if step < -backwardTolerance || step > jumpThreshold {
        track.epoch += 1
        track.correction = 0
        if track.epoch == shifts.count {
          shifts.append(epochEnds[track.epoch - 1] - track.timeBase.seconds(reference))
          epochEnds.append(-Double.infinity)
          startedEpoch = true
        }
        shifted = reference + track.timeBase.ticks(shifts[track.epoch])
        if let end = track.lastEnd, shifted < end { track.correction = end - shifted }
      }
    }
    var output = shifted + track.correction
    if stamps.dts != nil, let last = track.lastOutput, output <= last {
      track.correction += last + 1 - output
      output = last + 1
    }
    if let previous = track.lastReference, reference > previous {
      track.lastDelta = reference - previous
    }
    let length = duration > 0 ? duration : track.lastDelta
    track.lastReference = reference
    track.lastShifted = shifted
    if stamps.dts != nil { track.lastOutput = output }
    track.lastEnd = max(track.lastEnd ?? .min, output + length)
    epochEnds[track.epoch] = max(
      epochEnds[track.epoch], track.timeBase.seconds(shifted + length))
    let offset = output - reference
    return (
      Stamps(pts: stamps.pts.map { $0 + offset }, dts: stamps.dts.map { $0 + offset }), startedEpoch
    )
  }
}
