import DASHManifest
import Foundation
import OfflineLocks

/// Records a live DASH presentation (`type="dynamic"`) into a content's folder (issue 41
/// item 6): one ``LiveRecording`` per chosen Representation, each fed the segments the MPD
/// makes available at every reload (``DASHLiveWindow``: a `$Number$` is a sequence number),
/// so the gap ledger, the start point and the stop rules are those of a live HLS recording.
/// It starts in the MPD's last Period and goes on into each Period that follows
/// (``DASHLiveRun/followPeriods(of:)``), a Period's tracks ending where it ends; the
/// offline MPD lists the recorded Periods in order.
///
/// It reloads the MPD every `minimumUpdatePeriod` (or as the recording asks, a segment
/// duration, when absent), reads the origin's time from `UTCTiming` or the `Date` of the
/// MPD's response, fetches each init section once and each segment through the piece engine
/// (``PieceRunner``, as a live HLS segment: the same retries, rate budgets and request
/// options; with several `BaseURL`s, steered and failed over between them as a VOD download
/// is, ``steering(_:)``), and stops when the MPD turns `static` or reaches its
/// `mediaPresentationDuration`, when the MPD stops bringing segments, at `--record-for`,
/// at `--record-until`, or on a cancel (Ctrl-C, the queue's pause or cancel).
///
/// After every event it writes `live-dash.json` (``DASHLiveState``, its new segments
/// appended to `live-dash.log` by ``DASHLiveStateWriter``) and `index-partial.mpd`,
/// a static MPD of what is on disk that a player opens; at the end `index.mpd`, the same.
/// The events are handled one at a time on an unstructured task; a cancel of the caller's
/// task reaches it only as a stop, so the segments in flight land first.
struct DASHLiveRecorder: Sendable {
  /// The presentation's download: its folder, session, journal, piece settings.
  let download: DASHDownload
  /// The chosen Representations.
  let paths: [RepresentationPath]
  /// Where it starts and when it stops.
  let options: LiveRecordingOptions
  /// The sources of the segments when the MPD names several (`BaseURL`s, service
  /// locations), shared by every fetch so a failing one is demoted across segments; nil
  /// with one source. Set by ``steering(_:)``.
  var failover: StreamFailover?
  /// The service locations every MPD update is steered by (`DASHSteering.startOrder`).
  var steeringOrder: [String] = []

  /// What ended in the recorder's task group.
  enum Happening: Sendable {
    case reloaded(DASHLiveManifest)
    case reloadFailed(LiveRecording.ReloadFailure, at: ContinuousClock.Instant)
    case fetched(track: Int, sequence: Int, Result<Int64, Transfer.Error>)
    case stop(LiveRecording.StopRequest)
    case nothing
  }

  var folder: URL { download.folder }
  var clock: any Timekeeping { download.session.clock }

  /// Records from `first` until the recording finishes.
  ///
  /// - Throws: ``Transfer/Error``: `canceled` when stopped by a cancel (what was recorded
  ///   stays playable), `invalidMedia` when the MPD stops answering for good or cannot be
  ///   recorded, the error of an init section, a file error.
  func run(first: DASHLiveManifest, onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    async throws(Transfer.Error) -> StreamOutcome
  {
    let stop = LiveStopSignal()
    let (recorder, first, reloads) = await steering(first)
    defer { reloads?.cancel() }
    let task = Task { await recorder.record(first: first, stop: stop, onProgress: onProgress) }
    let result = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      stop.stop()
    }
    let outcome = try result.get()
    if stop.wasStopped, DASHLiveState.read(in: folder)?.finished == .stopped {
      throw Transfer.Error(.canceled, url: download.url, destination: folder.path)
    }
    return outcome
  }

  /// The recording's loop, on a task of its own.
  private func record(
    first: DASHLiveManifest, stop: LiveStopSignal,
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async -> Result<StreamOutcome, Transfer.Error> {
    let (state, earlier) = startingState(first.mpd)
    var run = DASHLiveRun(recorder: self, state: state, resumed: earlier)
    var manifest = first
    var bytes: Int64 = 0
    var saved: DASHLiveState?
    var writer = DASHLiveStateWriter(folder: folder, resuming: earlier)
    var reloading = false
    do throws(Transfer.Error) {
      _ = try run.followPeriods(of: manifest.mpd, resumed: run.isResumed)
      try await fetchInitSections(&run.state, manifest)
    } catch {
      return .failure(error)
    }
    return await withTaskGroup(of: Happening.self) { group in
      group.addTask { await stop.wait() ? .stop(.user) : .nothing }
      if let until = options.recordUntil {
        let clock = self.clock
        group.addTask {
          do {
            try await clock.sleep(for: .seconds(max(until.timeIntervalSince(clock.now), 0)))
          } catch { return .nothing }
          return .stop(.untilReached)
        }
      }
      var step: DASHLiveRun.Step
      do throws(Transfer.Error) {
        step = try run.didReload(manifest)
      } catch {
        group.cancelAll()
        return .failure(error)
      }
      while true {
        for fetch in step.fetches {
          group.addTask { await fetchSegment(fetch) }
        }
        if let wait = step.reload, !reloading {
          reloading = true
          let period = manifest.mpd.live.minimumUpdatePeriod.map { Duration.seconds($0) }
          let due = manifest.began + min(wait, period ?? wait)
          group.addTask { await reload(at: due) }
        }
        if step.ended { run.state.finished = step.finishReason ?? run.state.finished }
        if run.state != saved {
          do throws(Transfer.Error) {
            try save(
              run.state, with: &writer, changed: run.unsaved, mpd: manifest.mpd,
              final: step.ended && step.failure == nil)
            saved = run.state
            run.unsaved = []
          } catch {
            group.cancelAll()
            return .failure(error)
          }
        }
        if step.ended {
          group.cancelAll()
          if let failure = step.failure { return .failure(failure) }
          return .success(outcome(run.state, bytes: bytes))
        }
        guard let happening = await group.next() else {
          return .failure(download.failure("the live recording stopped unexpectedly"))
        }
        switch happening {
        case .reloaded(let fresh):
          reloading = false
          manifest = fresh
          do throws(Transfer.Error) {
            step = try run.didReload(fresh)
            try await fetchInitSections(&run.state, fresh)  // of a Period that began
          } catch {
            group.cancelAll()
            return .failure(error)
          }
        case .reloadFailed(let why, let at):
          reloading = false
          step = run.didFailToReload(why, at: at)
        case .fetched(let track, let sequence, .success(let fetched)):
          bytes += fetched
          step = run.didFetch(track: track, sequence: sequence)
          onProgress(
            OfflineProgress(
              bytes: bytes, total: nil, totalIsEstimate: true,
              segmentsDone: run.state.tracks.reduce(0) { $0 + $1.journal.recorded.count }))
        case .fetched(let track, let sequence, .failure):
          step = run.didFailToFetch(track: track, sequence: sequence)
        case .stop(let request):
          step = run.didAskToStop(request, at: clock.instant)
        case .nothing:
          step = DASHLiveRun.Step()
        }
      }
    }
  }

  /// The state an earlier run left to go on with (unless it recorded other
  /// Representations of `mpd`'s last Period), or a fresh one for ``paths`` in that Period;
  /// `earlier` says which.
  private func startingState(_ mpd: MPD) -> (state: DASHLiveState, earlier: Bool) {
    let last = mpd.periods.count - 1
    let key = DASHLiveState.periodKey(mpd, at: last)
    if var earlier = DASHLiveState.read(in: folder), earlier.goesOn {
      let same = earlier.tracks.filter { ($0.periodKey ?? key) == key }.map(\.path)
      if same.isEmpty
        || same.map(\.adaptationSet) == paths.map(\.adaptationSet)
          && same.map(\.representation) == paths.map(\.representation)
      {
        earlier.manifestURL = download.url
        return (earlier, true)
      }
    }
    var fresh = DASHLiveState(
      manifestURL: download.url, tracks: paths.map { .init($0, periodKey: key, ordinal: 0) })
    fresh.remember(mpd, period: last)
    return (fresh, false)
  }

  /// The outcome of a finished recording.
  private func outcome(_ state: DASHLiveState, bytes: Int64) -> StreamOutcome {
    let segments = state.tracks.reduce(0) { $0 + $1.journal.recorded.count }
    let inits = state.tracks.filter { $0.initialization != nil }.count
    return StreamOutcome(
      index: download.indexURL, bytes: bytes, segments: segments, initSections: inits, keys: 0,
      files: segments + inits,
      duration: state.recordedSeconds, sources: failover?.reports ?? [])
  }
}
