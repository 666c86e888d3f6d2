import Foundation

/// A live DASH recording split into consecutive parts (`offline get --split`, issue 41
/// item 5), as ``LiveParts`` splits a live HLS one: `part001/`, `part002/`… inside the
/// output folder, each an ordinary live DASH recording's folder (`live-dash.json`,
/// `index.mpd`) of about ``LiveRecordingOptions/splitEvery`` of media.
///
/// A part ends by `--record-for` reached (its share). Its tracks then stop where they are,
/// each a little further than the others, so the part is cut at one media time, the end of
/// the track that recorded least (``cut(_:)``): every track keeps the segments that start
/// before it, and the next part starts each track at its first segment that does not, which
/// it fetches again (it was fetched a moment ago, so it is still in the window; one that
/// left it meanwhile is a gap of the new part, never a silent hole). No segment is lost or
/// recorded twice between two parts, and the parts begin at the same media time in every
/// track.
///
/// Where to go on is read from the parts' states alone, so a rerun after a kill or a stop
/// finds it as the first run left it. A value with no I/O but ``existing(in:)``.
enum DASHLiveParts {
  /// What the parts in a folder say the recording does next.
  enum Next: Sendable, Equatable {
    /// Records into this part: fresh when it has no state, else going on with it.
    case goOn(part: Int)
    /// Cuts the last part to `kept`, then starts part `part` from `seed`.
    case start(part: Int, kept: DASHLiveState, seed: DASHLiveState)
    /// The recording is over; this is its last part (0: none).
    case over(last: Int)
  }

  /// The parts in `folder`, in order, with their states (nil: no `live-dash.json` yet).
  static func existing(in folder: URL) -> [(index: Int, state: DASHLiveState?)] {
    LiveParts.indices(in: folder).map { index in
      (index, DASHLiveState.read(in: LiveParts.folder(index, in: folder)))
    }
  }

  /// What comes next after `parts` (as ``existing(in:)`` gives them), with `recordFor` the
  /// whole recording's limit: the first part when there is none; the last part again when
  /// it did not finish (a kill, a stop); a new part after one that reached its share,
  /// unless the whole recording reached `recordFor`; over after any other end (the
  /// presentation's end, silence, `--record-until`).
  static func next(after parts: [(index: Int, state: DASHLiveState?)], recordFor: Duration?)
    -> Next
  {
    guard let last = parts.last else { return .goOn(part: 1) }
    guard let state = last.state else { return .goOn(part: last.index) }
    if state.goesOn { return .goOn(part: last.index) }
    guard state.finished == .durationReached, let (kept, seed) = cut(state) else {
      return .over(last: last.index)
    }
    let before = parts.dropLast().reduce(0) { $0 + ($1.state?.recordedSeconds ?? 0) }
    if let recordFor, before + kept.recordedSeconds >= recordFor.inSeconds {
      return .over(last: last.index)
    }
    return .start(part: last.index + 1, kept: kept, seed: seed)
  }

  /// Seconds of media recorded in all `parts`.
  static func recorded(_ parts: [(index: Int, state: DASHLiveState?)]) -> Double {
    parts.reduce(0) { $0 + ($1.state?.recordedSeconds ?? 0) }
  }

  /// `state`, a part that reached its share, cut at the end of its last Period's track that
  /// recorded least (in presentation time: each track's media time less its
  /// `@presentationTimeOffset`, ISO/IEC 23009-1 5.3.9, so tracks whose media times start
  /// apart are cut at one instant): what the part keeps, and the state the next
  /// part starts from (the last Period's tracks, each beginning at its first segment not
  /// kept, its `$Time$` numbering carried on). Nil when a track of that Period recorded
  /// nothing.
  static func cut(_ state: DASHLiveState) -> (kept: DASHLiveState, seed: DASHLiveState)? {
    guard let key = state.tracks.last?.periodKey else { return nil }
    let last = state.tracks.indices.filter { state.tracks[$0].periodKey == key }
    var ends: [Double] = []
    for index in last {
      let track = state.tracks[index]
      guard let number = track.journal.recorded.last, let segment = track.segments[number]
      else { return nil }
      ends.append(track.presentationSeconds(segment.time + segment.duration))
    }
    guard let end = ends.min() else { return nil }
    var kept = state
    var seed = DASHLiveState(manifestURL: state.manifestURL, tracks: [])
    seed.periodManifests = state.periodManifests?.filter { $0.key == key }
    for index in last {
      let track = state.tracks[index]
      let later = track.segments.filter { track.presentationSeconds($0.value.time) >= end }.keys
      let first = later.min() ?? track.journal.nextSequence ?? 0
      kept.tracks[index] = keeping(track, below: first)
      var next = track
      next.initialization = nil
      next.segments = [:]
      next.journal = LiveJournal()
      next.journal.firstSequence = first
      next.journal.nextSequence = first
      next.journal.targetDuration = track.journal.targetDuration
      seed.tracks.append(next)
    }
    return (kept, seed)
  }

  /// The local files `kept` no longer lists of `state`'s: the segments cut off.
  static func cutOff(_ state: DASHLiveState, kept: DASHLiveState) -> [String] {
    zip(state.tracks, kept.tracks).flatMap { track, kept in
      track.segments.filter { kept.segments[$0.key] == nil }.map(\.value.local)
    }
  }

  /// `track` with its numbers from `first` on left out: not recorded, not in its ledger,
  /// not on disk, its recorded seconds without theirs, its next number `first`.
  private static func keeping(_ track: DASHLiveState.Track, below first: Int)
    -> DASHLiveState.Track
  {
    var track = track
    guard let next = track.journal.nextSequence, first < next else { return track }
    var recorded = SequenceRanges()
    for run in track.journal.recorded.runs where run.lowerBound < first {
      recorded.insert(run.lowerBound...min(run.upperBound, first - 1))
    }
    var ledger = LiveGapLedger()
    for gap in track.journal.ledger.gaps where gap.sequences.lowerBound < first {
      ledger.add(
        LiveGap(
          sequences: gap.sequences.lowerBound...min(gap.sequences.upperBound, first - 1),
          reason: gap.reason))
    }
    let dropped = track.segments.filter {
      $0.key >= first && track.journal.recorded.contains($0.key)
    }
    let droppedSeconds = dropped.values.reduce(0) {
      $0 + Double($1.duration) / Double(max(track.timescale, 1))
    }
    track.journal.recorded = recorded
    track.journal.ledger = ledger
    track.journal.asked = track.journal.asked.filter { $0.key < first }
    track.journal.recordedSeconds = max(track.journal.recordedSeconds - droppedSeconds, 0)
    track.journal.nextSequence = first
    track.segments = track.segments.filter { $0.key < first }
    return track
  }
}
