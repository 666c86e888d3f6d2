/// Makes one continuous, monotonic timeline out of a stream whose timestamps jump: at an
/// `EXT-X-DISCONTINUITY`, a timestamp reset or a gap, a stream's timestamps go backwards or leap
/// far ahead, and a muxer refuses them (or a player shows the wrong duration).
///
/// The timeline is cut into epochs. A stream leaves an epoch when its decode time goes back, or
/// forward more than `jumpThreshold` (a stream without decode times: when its presentation
/// time goes back more than `backwardTolerance`). The primary stream (the first
/// video, else the first audio) fixes the next epoch's shift: its first packet there is shown
/// exactly where its last one shown ended (presentation times, so B-frames' reorder delay
/// opens no gap), so the file's duration is the primary stream's, which is what the
/// playlist counts. Every other stream takes the same shift, so audio and video stay in step as
/// they were in the source; a packet of another stream that leaves the epoch before the primary
/// stream does is held (``Placement/held``) until the primary fixes the shift. When the caller
/// cannot hold more (the primary stream did not jump), the jump was that stream's own gap or
/// reset: it stays in the epoch, moved forward only as far as its timestamps must increase.
/// Without a primary stream, the first stream to leave an epoch fixes the shift.
///
/// Where a part's audio runs past its video (AAC frames do not end on a video frame; ffmpeg's
/// 2 s parts carry 27 ms more audio than video), the next part's first audio packets overlap the
/// last ones. Kept, they would push the audio later at every discontinuity (seconds over a few
/// hundred) or break the decode order, so the way players do it, a packet of a `droppable`
/// stream (audio) that overlaps the one before it by more than half its length is left out
/// (``Placement/dropped``), and one that overlaps it less starts where it ends. Nothing
/// accumulates from part to part. Subtitle streams (sparse) never leave an epoch; they follow
/// the latest one.
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

  /// What to do with a packet.
  enum Placement: Sendable, Equatable {
    /// Write it with these timestamps; `startedEpoch` when it fixed a new epoch's shift.
    case placed(Stamps, startedEpoch: Bool)
    /// Keep it, and every later packet of its stream, until the primary stream fixes the
    /// shift of the epoch it starts; then hand them in again, in order.
    case held
    /// Leave it out: it is audio the previous part already covers.
    case dropped
  }

  private struct Track: Sendable {
    var timeBase: TimeBase
    var isSparse: Bool
    var isDroppable: Bool
    var minimumStep: Int64
    /// Whether the track's first packet in its epoch is still to be placed.
    var isSettling = false
    var epoch = 0
    var correction: Int64 = 0
    var lastShifted: Int64?
    var lastOutput: Int64?
    var lastEnd: Int64?
    /// Where the latest-shown packet placed so far ends: its presentation time plus its
    /// length (with B-frames, after the decode-order end by the reorder delay).
    var lastPresentationEnd: Int64?
    var lastReference: Int64?
    var lastDelta: Int64 = 0
  }

  private var tracks: [Track]
  private let primary: Int?
  /// The shift of each epoch, in seconds.
  private var shifts: [Double]
  /// The epochs found so far, in order: where each starts on the output timeline and the
  /// seconds added to the source's times in it.
  private(set) var epochs: [CueTimeline.Epoch]
  private let jumpThreshold: Double
  private let backwardTolerance: Double

  /// Discontinuities found so far.
  var discontinuities: Int { shifts.count - 1 }

  /// Makes a stitcher for streams with `timeBases`, of which the `sparse` ones (subtitles)
  /// follow the others, `primary` fixes each epoch's shift and the `droppable` ones (audio)
  /// may lose packets that overlap the previous part. Where a packet must be moved
  /// forward to come after the last one, it goes `minimumSteps` ticks after it (one tick of
  /// the written file's time base, so the muxer sees the decode time grow; one when nil).
  /// The output starts at zero:
  /// `startTime` (seconds) is taken off. A forward jump beyond `jumpThreshold` seconds starts
  /// an epoch, as does any step back in decode time, or a step back beyond `backwardTolerance`
  /// in presentation time for packets without a decode time.
  init(
    timeBases: [TimeBase], sparse: [Bool], droppable: [Bool]? = nil, primary: Int?,
    startTime: Double, jumpThreshold: Double, backwardTolerance: Double = 0.5,
    minimumSteps: [Int64]? = nil
  ) {
    let steps = minimumSteps ?? timeBases.map { _ in 1 }
    let droppable = droppable ?? timeBases.map { _ in false }
    tracks = timeBases.indices.map {
      Track(
        timeBase: timeBases[$0], isSparse: sparse[$0], isDroppable: droppable[$0],
        minimumStep: max(steps[$0], 1))
    }
    self.primary = primary
    shifts = [-startTime]
    epochs = [CueTimeline.Epoch(start: 0, shift: -startTime)]
    self.jumpThreshold = jumpThreshold
    self.backwardTolerance = backwardTolerance
  }

  /// Where a packet of stream `index`, read with `stamps` and lasting `duration` ticks (zero
  /// when unknown), goes on the timeline. With `mayHold` false the packet is always placed.
  mutating func stitch(
    _ stamps: Stamps, duration: Int64, stream index: Int, mayHold: Bool = true
  ) -> Placement {
    guard let reference = stamps.dts ?? stamps.pts else {
      return .placed(stamps, startedEpoch: false)
    }
    var track = tracks[index]
    var startedEpoch = false
    if track.isSparse { track.epoch = shifts.count - 1 }
    var shifted = reference + track.timeBase.ticks(shifts[track.epoch])
    if !track.isSparse, let last = track.lastShifted {
      let step = track.timeBase.seconds(shifted - last)
      // Decode times never go back within an epoch; presentation times (a stream without
      // decode times) do by the frame reordering, so those are let go back a little.
      let tolerance = stamps.dts == nil ? backwardTolerance : 0
      if step < -tolerance || step > jumpThreshold {
        let fixesShift = primary == nil || primary == index
        if track.epoch + 1 == shifts.count, fixesShift {
          // The epoch's first picture (first in decode order; a keyframe, first shown of its
          // group) shows where the last one shown ended. Anchored on decode times, B-frames'
          // reorder delay would open a gap of that delay at every discontinuity.
          let end = epochEnd(of: track)
          shifts.append(end - track.timeBase.seconds(stamps.pts ?? reference))
          epochs.append(CueTimeline.Epoch(start: end, shift: shifts[shifts.count - 1]))
          startedEpoch = true
        } else if track.epoch + 1 == shifts.count, mayHold {
          return .held
        }
        // Without a shift from the primary stream, a jump of this stream alone is a gap or a
        // reset of its own: it stays in the epoch, in step with the others.
        if track.epoch + 1 < shifts.count {
          track.epoch += 1
          track.correction = 0
          track.isSettling = index != primary
          shifted = reference + track.timeBase.ticks(shifts[track.epoch])
        }
      }
    }
    if let previous = track.lastReference, reference > previous {
      track.lastDelta = reference - previous
    }
    let length = duration > 0 ? duration : track.lastDelta
    var output = shifted + track.correction
    if track.isSettling, let end = track.lastEnd, output < end {
      if track.isDroppable, end - output > length / 2 {
        track.lastReference = reference
        track.lastShifted = shifted
        tracks[index] = track
        return .dropped
      }
      track.correction += end - output
      output = end
    }
    track.isSettling = false
    // Decode times must grow. Where a packet's would not, it is raised to just after the last
    // one: alone when it stays before its presentation time (a B-frame stream's first decode
    // times after a reset squeeze in where the previous part's last frames were decoded, and
    // the pictures keep their places), else with every later packet of the stream.
    var raised: Int64 = 0
    if stamps.dts != nil, let last = track.lastOutput, output < last + track.minimumStep {
      let needed = last + track.minimumStep
      if let pts = stamps.pts, let dts = stamps.dts, pts - dts + output >= needed {
        raised = needed - output
      } else {
        track.correction += needed - output
        output = needed
      }
    }
    track.lastReference = reference
    track.lastShifted = shifted
    if stamps.dts != nil { track.lastOutput = output + raised }
    track.lastEnd = max(track.lastEnd ?? .min, output + length)
    let offset = output - reference
    if let pts = stamps.pts {
      track.lastPresentationEnd = max(track.lastPresentationEnd ?? .min, pts + offset + length)
    }
    tracks[index] = track
    return .placed(
      Stamps(pts: stamps.pts.map { $0 + offset }, dts: stamps.dts.map { $0 + offset + raised }),
      startedEpoch: startedEpoch)
  }

  /// Where `track`, the stream that fixes the shift, ended in the epoch being left, in
  /// seconds.
  private func epochEnd(of track: Track) -> Double {
    guard let end = track.lastPresentationEnd ?? track.lastEnd else { return 0 }
    return track.timeBase.seconds(end)
  }
}
