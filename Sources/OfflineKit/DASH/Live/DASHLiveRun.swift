import DASHManifest
import Foundation
import HLSPlaylist

/// The recordings of a live DASH presentation's chosen Representations, one
/// ``LiveRecording`` each, fed the same MPD: what the recorder's events make of them, as
/// ``Step``s it carries out. It does no I/O; `state` is what the recorder saves.
struct DASHLiveRun: Sendable {
  /// One segment to fetch.
  struct Fetch: Sendable {
    var track: Int
    var sequence: Int
    var remote: URL
    var local: String
    var seconds: Double
    /// The segment at the presentation's other sources, best first.
    var alternates: [URL] = []
  }

  /// What the recorder does after an event.
  struct Step: Sendable {
    /// Segments to fetch.
    var fetches: [Fetch] = []
    /// Reload the MPD after this wait (counted from its last load), when none is pending.
    var reload: Duration?
    /// Every track is over: save and end.
    var ended = false
    /// Why it finished, when it did.
    var finishReason: LiveRecording.FinishReason?
    /// Why it failed, when it did.
    var failure: Transfer.Error?

    /// Adds what `other` asks for.
    mutating func merge(_ other: Step) {
      fetches += other.fetches
      if let wait = other.reload { reload = min(reload ?? wait, wait) }
      ended = ended || other.ended
      finishReason = finishReason ?? other.finishReason
      failure = failure ?? other.failure
    }
  }

  let manifestURL: URL
  let clock: any Timekeeping
  /// What is recorded, saved after every event.
  var state: DASHLiveState
  /// The segments of `state` set since the recorder last saved it, which its writer logs
  /// (``DASHLiveStateWriter``); the recorder empties it once saved.
  var unsaved: Set<DASHLiveStateWriter.Change> = []
  /// One decision value per track.
  var recordings: [LiveRecording]
  /// Each track's window at the last reload.
  var windows: [DASHLiveWindow?]
  /// Whether it goes on from an earlier run's state.
  let isResumed: Bool
  /// Whether an MPD answered this run: before, a Period gone from it left while the
  /// recorder was down.
  var answered = false
  /// The Representations to record in Period `index` of an MPD (see
  /// ``DASHDownload/livePaths(in:period:)``).
  let choose: @Sendable (MPD, Int) throws(Transfer.Error) -> [RepresentationPath]
  /// How the recording of a Period that follows the first one starts: from its first
  /// segment still available.
  let followingConfiguration: LiveRecording.Configuration
  /// Seconds of media the whole presentation records at most (`--record-for`, or a
  /// `--split` part's share); nil records on.
  let recordFor: Double?

  /// The run of `recorder` going on from `state` (fresh, or left by an earlier run: from
  /// the live edge after a stop, where it left off after a kill). `resumed` says an earlier
  /// run left it, even one killed before any segment was numbered; nil when any of its
  /// tracks has a number.
  init(recorder: DASHLiveRecorder, state: DASHLiveState, resumed: Bool? = nil) {
    manifestURL = recorder.download.url
    clock = recorder.clock
    let download = recorder.download
    choose = { (mpd, period) throws(Transfer.Error) in
      try download.livePaths(in: mpd, period: period)
    }
    let configuration = recorder.options.recordingConfiguration
    var following = configuration
    following.start = .fromStart
    followingConfiguration = following
    recordFor = configuration.recordFor
    let point: LiveRecording.ResumePoint = state.finished == .stopped ? .liveEdge : .whereLeft
    recordings = state.tracks.map { track in
      track.journal.nextSequence == nil
        ? LiveRecording(configuration: configuration)
        : LiveRecording(resuming: track.journal, from: point, configuration: configuration)
    }
    isResumed = resumed ?? state.tracks.contains { $0.journal.nextSequence != nil }
    var fresh = state
    fresh.finished = nil
    self.state = fresh
    windows = Array(repeating: nil, count: state.tracks.count)
  }

  /// The MPD answered: each track's window goes to its recording.
  ///
  /// - Throws: ``Transfer/Error`` `invalidMedia` when a window cannot be listed.
  mutating func didReload(_ manifest: DASHLiveManifest) throws(Transfer.Error) -> Step {
    let now = manifest.wallTime(at: clock.now)
    let present = try followPeriods(of: manifest.mpd)
    var step = Step()
    for track in state.tracks.indices where !recordings[track].isOver {
      guard present[track] else {
        // Its Period left the MPD: nothing more of it can be fetched, and what it had not
        // seen up to the Period's last segment goes into the ledger (the recorder was
        // down, when this is its first answer since).
        var journal = recordings[track].journal
        let resuming = if case .resuming = recordings[track].phase { true } else { false }
        let reason: LiveGap.Reason =
          resuming || isResumed && !answered ? .notRunning : .fellOutOfWindow
        if journal.nextSequence == nil, let first = state.firstNumber(of: state.tracks[track]) {
          // It never saw a segment of its Period: all of them are the gap.
          journal.firstSequence = first
          journal.nextSequence = first
        }
        if let next = journal.nextSequence, let last = lastNumber(of: track, in: manifest.mpd),
          last >= next
        {
          journal.ledger.add(LiveGap(sequences: next...last, reason: reason))
          journal.nextSequence = last + 1
        }
        recordings[track].journal = journal
        if let key = state.tracks[track].periodKey, state.recordedNothing(in: key) {
          state.noteMissed(key, endingBy: laterStart(in: manifest.mpd), reason: reason)
        }
        let over = MediaPlaylist(
          targetDuration: 1, mediaSequence: journal.nextSequence ?? 0, hasEndList: true,
          segments: [])
        step.merge(apply(recordings[track].didReload(over, at: manifest.began), track: track))
        continue
      }
      var window = try DASHLiveWindow(
        state.tracks[track].path, of: manifest.mpd, manifestURL: manifestURL, at: now)
      if window.numberedByTime {
        var numbering = state.tracks[track].timeNumbering ?? .init()
        window.segments = numbering.number(window.segments)
        state.tracks[track].timeNumbering = numbering
      }
      windows[track] = window
      state.tracks[track].timescale = window.timescale
      state.tracks[track].presentationTimeOffset = window.presentationTimeOffset
      let playlist = window.playlist(next: recordings[track].journal.nextSequence)
      share(track)
      step.merge(apply(recordings[track].didReload(playlist, at: manifest.began), track: track))
    }
    answered = true
    return ending(step)
  }

  /// The last `$Number$` of track `track`'s Period, which left `mpd`: it ended by the start
  /// of `mpd`'s first Period at the latest.
  private func lastNumber(of track: Int, in mpd: MPD) -> Int? {
    state.lastNumber(of: state.tracks[track], endingBy: laterStart(in: mpd))
  }

  /// The start of `mpd`'s first Period, by which a Period that left it ended.
  private func laterStart(in mpd: MPD) -> Double? {
    mpd.periods.isEmpty ? nil : mpd.periodStart(at: 0)
  }

  /// A reload failed.
  mutating func didFailToReload(_ why: LiveRecording.ReloadFailure, at: ContinuousClock.Instant)
    -> Step
  {
    var step = Step()
    for track in state.tracks.indices where !recordings[track].isOver {
      step.merge(apply(recordings[track].didFailToReload(why, at: at), track: track))
    }
    return ending(step)
  }

  /// A segment is on disk.
  mutating func didFetch(track: Int, sequence: Int) -> Step {
    let step = apply(recordings[track].didFetch(sequence), track: track)
    return ending(step)
  }

  /// A segment failed after its retries: it goes into its track's ledger.
  mutating func didFailToFetch(track: Int, sequence: Int) -> Step {
    let step = apply(recordings[track].didFailToFetch(sequence), track: track)
    return ending(step)
  }

  /// A stop was asked: every track finishes once its fetches are settled.
  mutating func didAskToStop(_ request: LiveRecording.StopRequest, at: ContinuousClock.Instant)
    -> Step
  {
    var step = Step()
    for track in state.tracks.indices {
      step.merge(apply(recordings[track].didAskToStop(request, at: at), track: track))
    }
    return ending(step)
  }

  /// Gives track `track`'s recording its share of `--record-for` (or of a `--split` part):
  /// the whole limit less what the Periods before the track's recorded or asked for (their
  /// shortest track's seconds, as ``DASHLiveState/recordedSeconds`` counts them), so each
  /// track asks for segments by the share rule of ``LiveRecording/isShareSpent`` and the
  /// presentation records its limit in every track, to within a segment.
  private mutating func share(_ track: Int) {
    guard let whole = recordFor else { return }
    let key = state.tracks[track].periodKey
    let before = state.recordedPeriodKeys.prefix { $0 != key }.reduce(0.0) { sum, earlier in
      let seconds = recordings.indices.filter { state.tracks[$0].periodKey == earlier }.map {
        let journal = recordings[$0].journal
        return journal.recordedSeconds + journal.asked.values.reduce(0, +)
      }
      return sum + (seconds.min() ?? 0)
    }
    recordings[track].configuration.recordFor = max(whole - before, 0)
  }

  /// Carries `actions` of track `track` into a step and the state.
  private mutating func apply(_ actions: [LiveRecording.Action], track: Int) -> Step {
    var step = Step()
    for action in actions {
      switch action {
      case .fetch(let fetches):
        for fetch in fetches {
          let listed = windows[track]?.segments.first { $0.number == UInt64(fetch.sequence) }
          let local =
            listed?.time.map {
              DASHLiveTimeTemplate.localName(folder: state.tracks[track].localFolder, time: $0)
            }
            ?? state.tracks[track].localFolder + String(format: "/s%06d.m4s", fetch.sequence)
          let segment = DASHLiveState.Segment(
            local: local, time: listed?.time ?? 0, duration: listed?.duration ?? 0)
          if state.tracks[track].segments[fetch.sequence] != segment {
            state.tracks[track].segments[fetch.sequence] = segment
            unsaved.insert(.init(track: track, number: fetch.sequence))
          }
          guard let remote = URL(string: fetch.uri) else { continue }
          step.fetches.append(
            Fetch(
              track: track, sequence: fetch.sequence, remote: remote, local: local,
              seconds: fetch.segment.duration,
              alternates: windows[track]?.alternates[fetch.uri] ?? []))
        }
      case .reload(let wait):
        step.reload = min(step.reload ?? wait, wait)
      case .recordGap:
        break  // the journal's ledger holds it
      case .finish(let reason):
        step.finishReason = reason
      case .fail(let reason):
        step.failure = Transfer.Error(
          .invalidMedia(
            "the live MPD stopped answering (\(reason)); what was recorded plays"),
          url: manifestURL, destination: "")
      }
    }
    state.tracks[track].journal = recordings[track].journal
    return step
  }

  /// `step`, ended when every track is over. (Called with a step made beforehand: as the
  /// argument of a call on `self`, a mutation would not be seen, the receiver being read
  /// first.)
  private func ending(_ step: Step) -> Step {
    var step = step
    if recordings.allSatisfy(\.isOver) {
      step.ended = true
      // The last Period's reason: an earlier Period's tracks ended with their Period.
      for recording in recordings.reversed() {
        if case .finished(let reason) = recording.phase {
          step.finishReason = reason
          break
        }
      }
    }
    return step
  }
}
