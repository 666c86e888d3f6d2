import Foundation
import HLSPlaylist

extension HLSLiveRecorder {
  /// Where segment `fetch` goes and how the offline playlist lists it: `sNNNNNN.ts` (its
  /// media-sequence number; the extension of its URI when it is a media one).
  func entry(for fetch: LiveSegmentFetch) -> LiveRecordState.Entry {
    let remote = try? HLSURI.resolve(fetch.uri, against: playlistURL, what: "segment")
    let ext =
      remote.map { HLSURI.segmentExtension(of: $0, fragmented: false, subtitles: false) } ?? "ts"
    return LiveRecordState.Entry(
      duration: fetch.segment.duration, discontinuitySequence: fetch.discontinuitySequence,
      local: String(format: "s%06d.", fetch.sequence) + ext)
  }

  /// Fetches one segment through the piece engine, with its retries (at most
  /// ``liveRetries`` of them, starting at most half a second apart, so a segment that never
  /// comes is ledgered while the window still holds the ones after it): `.fetched`
  /// with its bytes, or with the error it failed with after them.
  func fetchSegment(_ fetch: LiveSegmentFetch, entry: LiveRecordState.Entry) async -> Happening {
    let remote: URL
    do throws(Transfer.Error) {
      remote = try HLSURI.resolve(fetch.uri, against: playlistURL, what: "segment")
    } catch {
      return .fetched(fetch.sequence, .failure(error))
    }
    let piece = StreamPiece(
      remote: remote, local: entry.local, slice: nil, estimatedBytes: 0, segments: 1,
      duration: entry.duration, rendition: 0)
    let runner = PieceRunner(
      folder: folder, journal: download.journal, session: download.session,
      pieceRetry: segmentRetry, concurrency: download.configuration.pieceConcurrency,
      pieces: [piece], packs: false)
    do {
      let result = try await runner.run(onProgress: { _ in })
      return .fetched(fetch.sequence, .success(result.bytes))
    } catch {
      return .fetched(fetch.sequence, .failure(error))
    }
  }

  /// The most retries of one live segment.
  static let liveRetries = 3

  /// The retries of a live segment: the stream's, at most ``liveRetries``, starting at most
  /// half a second apart.
  var segmentRetry: PieceRetryPolicy {
    var configuration = download.configuration
    configuration.pieceRetries = min(configuration.pieceRetries, Self.liveRetries)
    configuration.pieceRetryDelay = min(configuration.pieceRetryDelay, .milliseconds(500))
    return PieceRetryPolicy(
      configuration, refreshesURL: download.refreshesURL, onRetry: download.onPieceRetry,
      clock: clock)
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
      guard case .media(let media) = parsed.playlist else {
        return .reloadFailed(.noAnswer, at: clock.instant)
      }
      return .reloaded(media, at: began)
    } catch {
      if endsForRefresh(error) { return .refused(error) }
      if case .status(let code, _) = error.kind {
        return .reloadFailed(.httpStatus(code), at: clock.instant)
      }
      return .reloadFailed(.noAnswer, at: clock.instant)
    }
  }
}
