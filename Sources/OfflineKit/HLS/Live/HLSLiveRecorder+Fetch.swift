import Foundation
import HLSPlaylist
import HexDigits

extension HLSLiveRecorder {
  /// Where segment `fetch` goes and how the offline playlist lists it: `sNNNNNN.ts` (its
  /// media-sequence number; the extension of its URI when it is a media one, `m4s` for a
  /// fragmented one), with the local names of its init section and AES-128 key (named in
  /// `state` when they are new) and its IV written out.
  func entry(for fetch: LiveSegmentFetch, in state: inout LiveRecordState)
    -> LiveRecordState.Entry
  {
    let remote = try? HLSURI.resolve(fetch.uri, against: playlistURL, what: "segment")
    let fragmented = fetch.map != nil
    let ext =
      remote.map { HLSURI.segmentExtension(of: $0, fragmented: fragmented, subtitles: false) }
      ?? (fragmented ? "m4s" : "ts")
    var entry = LiveRecordState.Entry(
      duration: fetch.segment.duration, discontinuitySequence: fetch.discontinuitySequence,
      local: String(format: "s%06d.", fetch.sequence) + ext)
    if let map = fetch.map { entry.map = state.initSection(for: map, base: playlistURL)?.local }
    if entry.map != nil, let key = try? fetch.mapAES128Key(base: playlistURL),
      let file = state.keyFile(for: key, base: playlistURL)
    {
      entry.mapKey = file.local
      entry.mapIV = key.iv.map { ASCIIHex.digits($0) }
    }
    if let key = try? fetch.aes128Key(base: playlistURL),
      let file = state.keyFile(for: key, base: playlistURL)
    {
      entry.key = file.local
      entry.iv = ASCIIHex.digits(key.initializationVector(forMediaSequence: fetch.sequence))
    }
    return entry
  }

  /// Fetches one segment through the piece engine, with its retries (at most
  /// ``PieceRetryPolicy/liveRetries`` of them, starting at most half a second apart, so a
  /// segment that never comes is ledgered while the window still holds the ones after it),
  /// after its init section and key when they are not on disk yet: `.fetched` with its
  /// bytes, or with the error it failed with after them.
  func fetchSegment(
    _ fetch: LiveSegmentFetch, entry: LiveRecordState.Entry, sideFiles: LiveSideFiles
  ) async -> Happening {
    let remote: URL
    do throws(Transfer.Error) {
      remote = try HLSURI.resolve(fetch.uri, against: playlistURL, what: "segment")
      try await fetchSideFiles(of: fetch, entry: entry, sideFiles: sideFiles)
    } catch {
      return .fetched(fetch.sequence, .failure(error))
    }
    let piece = StreamPiece(
      remote: remote, local: entry.local, slice: nil, estimatedBytes: 0, segments: 1,
      duration: entry.duration, rendition: 0)
    do {
      let bytes = try await fetchPiece(piece)
      return .fetched(fetch.sequence, .success(bytes))
    } catch {
      return .fetched(fetch.sequence, .failure(error))
    }
  }

  /// Fetches `piece` through the piece engine with a live segment's retries; its bytes.
  func fetchPiece(_ piece: StreamPiece) async throws(Transfer.Error) -> Int64 {
    let runner = PieceRunner(
      folder: folder, journal: download.journal, session: download.session,
      pieceRetry: segmentRetry, concurrency: download.configuration.pieceConcurrency,
      pieces: [piece], packs: false)
    return try await runner.run(onProgress: { _ in }).bytes
  }

  /// Fetches the init section and the keys of segment `fetch` (its own, and its init
  /// section's when that is encrypted) unless they are on disk: the init section through
  /// the piece engine (a byte range of its file when the map has one, kept as served,
  /// encrypted or not), the keys as the VOD path stores keys (``HLSKeyStore``: 16 bytes,
  /// mode 0600).
  func fetchSideFiles(
    of fetch: LiveSegmentFetch, entry: LiveRecordState.Entry, sideFiles: LiveSideFiles
  ) async throws(Transfer.Error) {
    if let key = try fetch.mapAES128Key(base: playlistURL), let local = entry.mapKey {
      try await fetchKey(key, into: local, sideFiles: sideFiles)
    }
    if let map = fetch.map, let local = entry.map {
      let remote = try HLSURI.resolve(map.uri, against: playlistURL, what: "EXT-X-MAP")
      let piece = StreamPiece(
        remote: remote, local: local,
        slice: map.byteRange.map { Transfer.Slice(offset: $0.offset, length: $0.length) },
        estimatedBytes: 0)
      try await sideFiles.ensure(local, from: remote) { () async throws(Transfer.Error) in
        _ = try await fetchPiece(piece)
      }
    }
    if let key = try fetch.aes128Key(base: playlistURL), let local = entry.key {
      try await fetchKey(key, into: local, sideFiles: sideFiles)
    }
  }

  /// Fetches the AES-128 key `key` into `local` unless it is there (once, whichever
  /// segment asks first).
  private func fetchKey(_ key: Key, into local: String, sideFiles: LiveSideFiles)
    async throws(Transfer.Error)
  {
    guard let uri = key.uri else { return }
    let remote = try HLSURI.resolve(uri, against: playlistURL, what: "key")
    let file = HLSPlan.KeyFile(remote: remote, local: local)
    let store = download.keyStore
    let folder = self.folder
    try await sideFiles.ensure(local, from: remote) { () async throws(Transfer.Error) in
      do throws(TransferFileError) {
        try ContentFolders.make(forFiles: [local], in: folder.path)
      } catch {
        throw Transfer.Error(.file(error), url: remote, destination: error.path ?? folder.path)
      }
      _ = try await store.fetchMissing([file])
    }
  }

  /// The retries of a live segment: the stream's, capped for live
  /// (``PieceRetryPolicy/cappedForLive``).
  var segmentRetry: PieceRetryPolicy {
    PieceRetryPolicy(
      download.configuration, refreshesURL: download.refreshesURL,
      onRetry: download.onPieceRetry, clock: clock
    ).cappedForLive
  }

  /// Reloads the playlist at `due`: `.reloaded` with the instant the load began (RFC 8216
  /// §6.3.4 counts the next wait from then), `.refused` when the caller refreshes the URL
  /// on that refusal, else `.reloadFailed`.
  func reload(at due: ContinuousClock.Instant) async -> Happening {
    do {
      try await clock.sleep(until: due)
    } catch {
      return .nothing
    }
    let began = clock.instant
    do {
      let parsed = try await HLSPlaylistFetch(session: download.session, destination: folder.path)
        .playlist(at: playlistURL)
      let answered = clock.instant
      guard case .media(let media) = parsed.playlist else {
        return .reloadFailed(.noAnswer, at: answered)
      }
      // Timed from when the load began (RFC 8216 §6.3.4), unless the session's retries held
      // it past half a target duration (a 503 outage, say): then what it brought was seen
      // only now, and a new segment dated back to the first try made the recording take
      // the next unchanged answer for silence (session 38's CI).
      let held = began.duration(to: answered) > .milliseconds(media.targetDuration * 500)
      return .reloaded(media, at: held ? answered : began)
    } catch {
      if endsForRefresh(error) { return .refused(error) }
      if case .status(let code, _) = error.kind {
        return .reloadFailed(.httpStatus(code), at: clock.instant)
      }
      return .reloadFailed(.noAnswer, at: clock.instant)
    }
  }
}
