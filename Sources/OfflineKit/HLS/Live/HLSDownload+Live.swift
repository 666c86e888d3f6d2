import Foundation
import HLSPlaylist

extension HLSDownload {
  /// Whether the folder holds a live recording that the same command goes on with: one
  /// that did not finish (a kill) or that the user stopped (``LiveRecordState/goesOn``).
  var isRecordingLive: Bool {
    LiveRecordState.read(in: folder)?.goesOn ?? false
  }

  /// Whether `media`, the entry playlist, is recorded rather than downloaded: it is live (no
  /// `EXT-X-ENDLIST`, not `VOD`), or an earlier recording into the folder did not finish
  /// (the stream may have ended meanwhile: the recorder settles that too).
  func isLiveRecording(_ media: MediaPlaylist) -> Bool {
    (!media.hasEndList && media.playlistType != .vod) || isRecordingLive
  }

  /// Records the live media playlist `media`, loaded at `loadedAt` (see ``HLSLiveRecorder``).
  ///
  /// - Throws: ``Transfer/Error``: `invalidMedia` for segments with keys or init sections
  ///   (not recorded yet), or the recorder's.
  func recordLive(
    _ media: MediaPlaylist, loadedAt: ContinuousClock.Instant,
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    if media.segments.contains(where: {
      $0.map != nil || ($0.key.map { $0.method != .none } ?? false)
    }) {
      throw failure(
        "\(url.redactedForDisplay) is a live playlist with keys or init sections;"
          + " only clear MPEG-TS live streams can be recorded so far")
    }
    try HLSManifest(entryURL: url, keys: []).write(in: folder)
    onLiveRecording?(url)
    let recorder = HLSLiveRecorder(download: self, playlistURL: url, options: configuration.live)
    return try await recorder.run(first: media, loadedAt: loadedAt, onProgress: onProgress)
  }
}
