import Foundation
import HLSPlaylist

extension HLSDownload {
  /// Whether the folder holds a live recording that the same command goes on with: one
  /// that did not finish (a kill) or that the user stopped (``LiveRecordState/goesOn``).
  var isRecordingLive: Bool {
    if let state = LiveRecordState.readMain(in: folder) { return state.goesOn }
    guard configuration.live.splitEvery != nil else { return false }
    // Split into parts: it goes on unless its parts say it is over.
    let parts = LiveParts.existing(in: folder)
    guard !parts.isEmpty else { return false }
    if case .over = LiveParts.next(after: parts, recordFor: configuration.live.recordFor) {
      return false
    }
    return true
  }

  /// Refuses to run into a folder whose live recording ended (a repair's run, say): its
  /// segments have left the origin's window, and a run would start another recording over
  /// it. A run that finds an unfinished or stopped one goes on with it.
  ///
  /// - Throws: ``Transfer/Error`` `invalidMedia` saying so.
  func refuseEndedRecording() throws(Transfer.Error) {
    guard let state = LiveRecordState.readMain(in: folder), !state.goesOn else { return }
    throw failure(
      "this folder holds a live recording that ended (\(state.finished?.rawValue ?? "")):"
        + " its segments have left the live window and cannot be fetched again;"
        + " delete it and record the stream again")
  }

  /// Whether `media`, the entry playlist, is recorded rather than downloaded: it is live (no
  /// `EXT-X-ENDLIST`, not `VOD`), or an earlier recording into the folder did not finish
  /// (the stream may have ended meanwhile: the recorder settles that too).
  func isLiveRecording(_ media: MediaPlaylist) -> Bool {
    (!media.hasEndList && media.playlistType != .vod) || isRecordingLive
  }

  /// A media playlist fetched: where from and when its load began.
  struct FetchedMedia: Sendable {
    var url: URL
    var playlist: MediaPlaylist
    var loadedAt: ContinuousClock.Instant
  }

  /// The variant `entry` chooses (``HLSSelection``), fetched, when `entry` is a
  /// multivariant playlist; nil for a media playlist or one without variants.
  func chosenVariant(of entry: ParsedPlaylist) async throws(Transfer.Error) -> FetchedMedia? {
    guard case .master(let master) = entry.playlist,
      let selection = HLSSelection.choose(from: master, options: configuration)
    else { return nil }
    let variantURL = try HLSURI.resolve(selection.variant.uri, against: url, what: "variant")
    let loadedAt = session.clock.instant
    let media = try await mediaPlaylist(at: variantURL, importing: entry.variables)
    return FetchedMedia(url: variantURL, playlist: media, loadedAt: loadedAt)
  }

  /// What a live stream records: one media playlist, or a variant and its renditions.
  enum LiveSource: Sendable {
    /// The entry playlist itself, or the chosen variant, which carries every chosen track.
    case media(FetchedMedia)
    /// The chosen variant and the chosen renditions that have playlists of their own.
    case renditions(LiveRenditions)
  }

  /// What to record when the stream is live: the entry playlist itself, the chosen `variant`
  /// of a multivariant one, or that variant with its chosen renditions (each fetched now);
  /// nil for a VOD stream.
  func liveSource(
    _ entry: ParsedPlaylist, variant: FetchedMedia?, loadedAt: ContinuousClock.Instant
  ) async throws(Transfer.Error) -> LiveSource? {
    switch entry.playlist {
    case .media(let media):
      guard isLiveRecording(media) else { return nil }
      return .media(FetchedMedia(url: url, playlist: media, loadedAt: loadedAt))
    case .master(let master):
      guard let variant, isLiveRecording(variant.playlist),
        let selection = HLSSelection.choose(from: master, options: configuration)
      else { return nil }
      if let renditions = try await liveRenditions(
        of: master, selection: selection, variant: variant, variables: entry.variables)
      {
        return .renditions(renditions)
      }
      return .media(variant)
    }
  }

  /// Records the live media playlist `media` at `playlistURL`, loaded at `loadedAt` (see
  /// ``HLSLiveRecorder``); the offline playlist is that media playlist's.
  ///
  /// - Throws: ``Transfer/Error``: `invalidMedia` for segments or init sections encrypted
  ///   otherwise than with AES-128 keys (SAMPLE-AES, DRM), an encrypted init section without
  ///   its IV, or the recorder's.
  func recordLive(
    _ media: MediaPlaylist, at playlistURL: URL, loadedAt: ContinuousClock.Instant,
    variables: [String: String] = [:],
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    for segment in media.segments {
      let fetch = LiveSegmentFetch(
        sequence: segment.mediaSequenceNumber, discontinuitySequence: 0, segment: segment)
      _ = try fetch.aes128Key(base: playlistURL)
      _ = try fetch.mapAES128Key(base: playlistURL)
    }
    onLiveRecording?(playlistURL)
    if let every = configuration.live.splitEvery {
      return try await recordParts(
        every: every, first: media, at: playlistURL, loadedAt: loadedAt, variables: variables,
        onProgress: onProgress)
    }
    return try await recordOne(
      media, at: playlistURL, loadedAt: loadedAt, options: configuration.live,
      onProgress: onProgress)
  }

  /// Records the variant and renditions of `renditions` (see
  /// ``recordLiveRenditions(_:onProgress:)``).
  ///
  /// - Throws: ``Transfer/Error``: as ``recordLive(_:at:loadedAt:variables:onProgress:)``
  ///   for any of its playlists. With ``LiveRecordingOptions/splitEvery``, in parts
  ///   (``recordLiveRenditionParts(_:every:onProgress:)``).
  func recordLive(
    _ renditions: LiveRenditions, onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    for part in renditions.parts {
      for segment in part.media.playlist.segments {
        let fetch = LiveSegmentFetch(
          sequence: segment.mediaSequenceNumber, discontinuitySequence: 0, segment: segment)
        _ = try fetch.aes128Key(base: part.media.url)
        _ = try fetch.mapAES128Key(base: part.media.url)
      }
    }
    onLiveRecording?(renditions.parts[0].media.url)
    if let every = configuration.live.splitEvery {
      return try await recordLiveRenditionParts(renditions, every: every, onProgress: onProgress)
    }
    return try await recordLiveRenditions(
      renditions, options: configuration.live, onProgress: onProgress)
  }

  /// Records into ``folder`` with `options` (see ``HLSLiveRecorder``).
  func recordOne(
    _ media: MediaPlaylist, at playlistURL: URL, loadedAt: ContinuousClock.Instant,
    options: LiveRecordingOptions, onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    let keys = LiveRecordState.read(in: folder)?.keyFiles ?? []  // named by an earlier run
    try HLSManifest(entryURL: url, keys: keys).write(in: folder)
    let recorder = HLSLiveRecorder(download: self, playlistURL: playlistURL, options: options)
    return try await recorder.run(first: media, loadedAt: loadedAt, onProgress: onProgress)
  }

  /// This download into `folder` instead: one part of a split recording.
  func inFolder(_ folder: URL) -> HLSDownload {
    var download = self
    download.folder = folder
    return download
  }
}
