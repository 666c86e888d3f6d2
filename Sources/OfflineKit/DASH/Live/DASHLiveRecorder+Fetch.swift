import DASHManifest
import Foundation

extension DASHLiveRecorder {
  /// Fetches one segment through the piece engine with a live segment's retries (as
  /// ``HLSLiveRecorder/segmentRetry``): `.fetched` with its bytes, or the error it failed
  /// with after them.
  func fetchSegment(_ fetch: DASHLiveRun.Fetch) async -> Happening {
    do throws(Transfer.Error) {
      for remote in [fetch.remote] + fetch.alternates {
        _ = try HLSURI.resolve(remote.absoluteString, against: download.url, what: "segment")
      }
      var piece = StreamPiece(
        remote: fetch.remote, local: fetch.local, slice: nil, estimatedBytes: 0, segments: 1,
        duration: fetch.seconds, rendition: fetch.track)
      piece.alternates = fetch.alternates
      let result = try await runner([piece], retry: segmentRetry).run(onProgress: { _ in })
      return .fetched(track: fetch.track, sequence: fetch.sequence, .success(result.bytes))
    } catch {
      return .fetched(track: fetch.track, sequence: fetch.sequence, .failure(error))
    }
  }

  /// The piece engine over `pieces` in the folder, with the recording's ``failover``.
  private func runner(_ pieces: [StreamPiece], retry: PieceRetryPolicy) -> PieceRunner {
    var runner = PieceRunner(
      folder: folder, journal: download.journal, session: download.session, pieceRetry: retry,
      concurrency: download.configuration.pieceConcurrency, pieces: pieces, packs: false)
    if let failover { runner.failover = failover }
    return runner
  }

  /// The retries of a live segment: the presentation's, capped for live
  /// (``PieceRetryPolicy/cappedForLive``).
  private var segmentRetry: PieceRetryPolicy {
    PieceRetryPolicy(
      download.configuration, refreshesURL: download.refreshesURL,
      onRetry: download.onPieceRetry, clock: clock
    ).cappedForLive
  }

  /// Fetches the init section of every track that has none on disk yet, from `manifest`'s
  /// listing, with the presentation's retries.
  ///
  /// - Throws: ``Transfer/Error``: `invalidMedia` for a Representation without an init
  ///   section or that cannot be listed, the fetch's error.
  func fetchInitSections(_ state: inout DASHLiveState, _ manifest: DASHLiveManifest)
    async throws(Transfer.Error)
  {
    let now = manifest.wallTime(at: clock.now)
    var pieces: [StreamPiece] = []
    for (index, track) in state.tracks.enumerated() where track.initialization == nil {
      // A Period gone from the MPD, or not this one: its track never started.
      guard manifest.mpd.periods.indices.contains(track.period),
        track.periodKey.map({ $0 == DASHLiveState.periodKey(manifest.mpd, at: track.period) })
          ?? true
      else { continue }
      let window = try DASHLiveWindow(
        track.path, of: manifest.mpd, manifestURL: download.url, at: now)
      guard let initialization = window.initialization, initialization.byteRange == nil else {
        throw download.failure(
          "\(track.path.description) of the live presentation has no initialization section"
            + " of its own; only fragmented MP4 with one can be recorded so far")
      }
      for remote in [initialization.url] + window.initializationAlternates {
        _ = try HLSURI.resolve(
          remote.absoluteString, against: download.url, what: "DASH Initialization")
      }
      let local = track.localFolder + "/init.mp4"
      var piece = StreamPiece(
        remote: initialization.url, local: local, slice: nil, estimatedBytes: 4096,
        rendition: index)
      piece.alternates = window.initializationAlternates
      pieces.append(piece)
      state.tracks[index].initialization = local
    }
    guard !pieces.isEmpty else { return }
    let retry = PieceRetryPolicy(
      download.configuration, refreshesURL: download.refreshesURL,
      onRetry: download.onPieceRetry, clock: clock)
    _ = try await runner(pieces, retry: retry).run(onProgress: { _ in })
  }

  /// Reloads the MPD at `due`: `.reloaded`, or `.reloadFailed` with why.
  func reload(at due: ContinuousClock.Instant) async -> Happening {
    do {
      try await clock.sleep(until: due)
    } catch {
      return .nothing
    }
    do {
      return .reloaded(steered(try await download.fetchLiveManifest()))
    } catch {
      if case .status(let code, _) = error.kind {
        return .reloadFailed(.httpStatus(code), at: clock.instant)
      }
      if case .canceled = error.kind { return .nothing }
      return .reloadFailed(.noAnswer, at: clock.instant)
    }
  }

  /// Writes `live-dash.json` and `live-dash.log` with `writer` (the segments `changed`
  /// names logged), then `index-partial.mpd` of what is on disk (made from `mpd`), and when
  /// `final` `index.mpd` too.
  func save(
    _ state: DASHLiveState, with writer: inout DASHLiveStateWriter,
    changed: Set<DASHLiveStateWriter.Change>, mpd: MPD, final: Bool
  ) throws(Transfer.Error) {
    try writer.write(state, changed: changed)
    guard let offline = state.offlineManifest(from: mpd) else { return }
    let text = Data(MPDWriter.write(offline).utf8)
    try AtomicFile.write(
      text, to: folder.appending(path: DASHPartialManifest.fileName),
      mode: ReadableFileMode.shared, url: download.url, durably: false)
    if final {
      try AtomicFile.write(
        text, to: download.indexURL, mode: ReadableFileMode.shared, url: download.url)
    }
  }
}
