import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineLocks

/// Records a live HLS media playlist into a content's folder (issue 41): it feeds a
/// ``LiveRecording`` what happens (each reload with the instant its load began, each
/// segment fetched or failed) and carries out what it answers: segments fetched through the
/// piece engine (``PieceRunner``: the same retries, rate budgets, request options and
/// journal as a VOD stream's), reloads timed as RFC 8216 §6.3.4 says, gaps in the ledger.
///
/// After every event it writes `live.json` (``LiveRecordState``) and then `index.m3u8`
/// (``LiveOfflinePlaylist``), each atomically, so a kill at any moment leaves a playlist
/// that plays up to the last journalled segment, and the same command goes on from there.
///
/// A cancel of the task that runs it (Ctrl-C in `offline get`, the queue's pause or cancel)
/// stops the recording: the segments in flight land, the playlist gets `EXT-X-ENDLIST` and
/// plays, and the run throws `canceled`; running it again goes on from the live edge, the
/// time between one gap. The events are handled one at a time on that task; fetches and reloads run
/// as child tasks of an unstructured task, so a cancel reaches them only through the stop.
struct HLSLiveRecorder: Sendable {
  /// The stream's download: its folder, session, journal, piece settings.
  let download: HLSDownload
  /// The media playlist recorded.
  let playlistURL: URL
  /// Where it starts and when it stops.
  let options: LiveRecordingOptions

  /// What ended in the recorder's task group.
  enum Happening: Sendable {
    case reloaded(MediaPlaylist, at: ContinuousClock.Instant)
    case reloadFailed(LiveRecording.ReloadFailure, at: ContinuousClock.Instant)
    case fetched(Int, Result<Int64, Transfer.Error>)
    /// The playlist or a segment was refused (401, 403, 410) and the caller refreshes the
    /// URL: the run ends with this error, and goes on with the fresh URL from `live.json`.
    case refused(Transfer.Error)
    case stop(LiveRecording.StopRequest)
    /// A watcher that ended without a stop (its wait was cancelled).
    case nothing
  }

  var folder: URL { download.folder }
  var clock: any Timekeeping { download.session.clock }

  /// Records from `first`, the playlist loaded at `loadedAt`, until the recording finishes
  /// (or goes on from `live.json` when an earlier run left one unfinished).
  ///
  /// - Parameter onProgress: called after each segment, from the recording's task: bytes
  ///   and segments recorded, no total.
  /// - Throws: ``Transfer/Error``: `invalidMedia` when the playlist stops answering for
  ///   good (what was recorded stays playable), a file error when the state cannot be
  ///   written.
  func run(
    first: MediaPlaylist, loadedAt: ContinuousClock.Instant,
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    let stop = LiveStopSignal()
    let recorder = self
    let task = Task {
      await recorder.record(first: first, loadedAt: loadedAt, stop: stop, onProgress: onProgress)
    }
    let result = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      stop.stop()
    }
    let outcome = try result.get()
    // Stopped by the cancel: closed and playable, and the caller learns it was a cancel (a
    // queue's pause or cancel, Ctrl-C), not an end; the next run goes on from the live edge.
    // One that ended meanwhile (ENDLIST, --record-for) ended.
    if stop.wasStopped, LiveRecordState.read(in: folder)?.finished == .stopped {
      throw Transfer.Error(.canceled, url: playlistURL, destination: folder.path)
    }
    return outcome
  }

  /// The recording's loop, on a task of its own.
  private func record(
    first: MediaPlaylist, loadedAt: ContinuousClock.Instant, stop: LiveStopSignal,
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async -> Result<StreamOutcome, Transfer.Error> {
    let (earlier, point) = startingState()
    var state = earlier
    var recording =
      state.journal.nextSequence == nil
      ? LiveRecording(configuration: options.recordingConfiguration)
      : LiveRecording(
        resuming: state.journal, from: point, configuration: options.recordingConfiguration)
    var bytes: Int64 = 0
    // Segments wait here for a turn: at most `parallel` are fetched at once, lowest first
    // (a first window of hundreds, from the start of an EVENT playlist, say).
    var waiting: [(LiveSegmentFetch, LiveRecordState.Entry)] = []
    var fetching = 0
    let parallel = max(1, download.configuration.parallelSegments)
    // What `live.json` and the playlist say now: a reload that brought nothing new, or a
    // happening that changed nothing, writes nothing.
    var saved: LiveRecordState?
    var writer = LiveStateWriter(
      folder: folder, earlier: earlier.journal.nextSequence == nil ? nil : earlier)
    let sideFiles = LiveSideFiles()
    return await withTaskGroup(of: Happening.self) { group in
      group.addTask { await stop.wait() ? .stop(.user) : .nothing }
      if let until = options.recordUntil {
        let clock = self.clock
        group.addTask {
          let wait = max(until.timeIntervalSince(clock.now), 0)
          do { try await clock.sleep(for: .seconds(wait)) } catch { return .nothing }
          return .stop(.untilReached)
        }
      }
      var actions = recording.didReload(first, at: loadedAt)
      var instant = loadedAt
      while true {
        var ended: Result<StreamOutcome, Transfer.Error>?
        for action in actions {
          switch action {
          case .fetch(let fetches):
            for fetch in fetches {
              let entry = entry(for: fetch, in: &state)
              state.entries[fetch.sequence] = entry
              waiting.append((fetch, entry))
            }
          case .reload(let wait):
            let due = instant + wait
            group.addTask { await reload(at: due) }
          case .recordGap:
            break  // the journal's ledger holds it; the playlist marks it when written
          case .finish(let reason):
            state.finished = reason
            ended = .success(outcome(recording.journal, bytes: bytes))
          case .fail(let reason):
            ended = .failure(failure(reason))
          }
        }
        while fetching < parallel, !waiting.isEmpty {
          let (fetch, entry) = waiting.removeFirst()
          fetching += 1
          group.addTask { await fetchSegment(fetch, entry: entry, sideFiles: sideFiles) }
        }
        state.journal = recording.journal
        if state != saved {
          do throws(Transfer.Error) {
            if state.keys != saved?.keys, state.keys != nil {
              // The keys named so far, where `renew-keys` and the VOD path look for them.
              try HLSManifest(entryURL: download.url, keys: state.keyFiles).write(in: folder)
            }
            try save(state, with: &writer)
            saved = state
          } catch {
            group.cancelAll()
            return .failure(error)
          }
        }
        if let ended {
          group.cancelAll()
          return ended
        }
        guard let happening = await group.next() else {
          return .failure(failure(.noPlaylist(.noAnswer)))
        }
        instant = clock.instant
        if case .fetched = happening { fetching -= 1 }
        switch happening {
        case .reloaded(let playlist, let began):
          instant = began
          actions = recording.didReload(playlist, at: began)
        case .reloadFailed(let why, let at):
          instant = at
          actions = recording.didFailToReload(why, at: at)
        case .fetched(let sequence, .success(let fetched)):
          bytes += fetched
          actions = recording.didFetch(sequence)
          onProgress(progress(recording.journal, bytes: bytes))
        case .fetched(let sequence, .failure(let error)):
          if endsForRefresh(error) {
            group.cancelAll()  // what was asked stays asked: the next run fetches it
            return .failure(error)
          }
          actions = recording.didFailToFetch(sequence)
        case .refused(let error):
          group.cancelAll()
          return .failure(error)
        case .stop(let request):
          actions = recording.didAskToStop(request, at: instant)
        case .nothing:
          actions = []
        }
      }
    }
  }

  /// Whether `error` ends the run so that the caller refreshes the URL: it refreshes
  /// (``HLSDownload/refreshesURL``) and this is a refusal it refreshes on (401, 403, 410).
  func endsForRefresh(_ error: Transfer.Error) -> Bool {
    download.refreshesURL && URLRefresh.refusal(error) != nil
  }

  /// The state an earlier run left to go on with, and where to go on: where it left off
  /// after a kill (the segments still in the window are fetched), at the live edge after a
  /// stop (Ctrl-C), the time between in the ledger either way. A fresh state otherwise.
  private func startingState() -> (LiveRecordState, LiveRecording.ResumePoint) {
    guard var earlier = LiveRecordState.read(in: folder), earlier.goesOn else {
      return (LiveRecordState(playlistURL: playlistURL, journal: LiveJournal()), .whereLeft)
    }
    let point: LiveRecording.ResumePoint = earlier.finished == .stopped ? .liveEdge : .whereLeft
    earlier.finished = nil
    earlier.playlistURL = playlistURL  // a refreshed URL goes on with the same recording
    return (earlier, point)
  }

  /// Writes `live.json` (and `live.log`, see ``LiveStateWriter``), then the offline
  /// playlist that it describes: `index.m3u8`, and
  /// under the growing playlists' names too (``HLSGrowingPlaylists``), which is what the
  /// manager's ``OfflineContent/playbackURL(restrictedToAssetCache:)`` and `offline serve`
  /// hand a player while a stream downloads. Every segment it lists is on disk, so the
  /// playlist with remote URLs is the same one.
  private func save(_ state: LiveRecordState, with writer: inout LiveStateWriter)
    throws(Transfer.Error)
  {
    try writer.write(state)
    let text = Data(LiveOfflinePlaylist.text(state).utf8)
    let names = [HLSGrowingPlaylists.restrictedIndex, HLSGrowingPlaylists.mixedIndex]
    for name in names {
      try AtomicFile.write(
        text, to: folder.appending(path: name), mode: ReadableFileMode.shared, url: playlistURL,
        durably: false)
    }
    try AtomicFile.write(
      text, to: download.indexURL(), mode: ReadableFileMode.shared, url: playlistURL)
  }

  /// The outcome of a finished recording.
  private func outcome(_ journal: LiveJournal, bytes: Int64) -> StreamOutcome {
    let recorded = journal.recorded.count
    return StreamOutcome(
      index: download.indexURL(), bytes: bytes, segments: recorded, initSections: 0, keys: 0,
      files: recorded, duration: journal.recordedSeconds)
  }

  /// The progress after a segment: bytes fetched by this run, segments recorded, no total.
  private func progress(_ journal: LiveJournal, bytes: Int64) -> OfflineProgress {
    OfflineProgress(
      bytes: bytes, total: nil, totalIsEstimate: true, segmentsDone: journal.recorded.count)
  }

  /// The error of a recording that failed; what it recorded stays playable.
  private func failure(_ reason: LiveRecording.FailReason) -> Transfer.Error {
    let what: String
    switch reason {
    case .reloadsFailing(let last):
      what = "the live playlist stopped answering (\(last)); what was recorded plays"
    case .noPlaylist(let last):
      what = "the live playlist did not answer (\(last))"
    }
    return Transfer.Error(.invalidMedia(what), url: playlistURL, destination: folder.path)
  }
}
