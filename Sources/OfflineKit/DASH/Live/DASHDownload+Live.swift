import DASHManifest
import Foundation

extension DASHDownload {
  /// Whether the folder holds a live recording that the same command goes on with: one
  /// that did not finish (a kill) or that the user stopped.
  var isRecordingLive: Bool {
    if let state = DASHLiveState.read(in: folder) { return state.goesOn }
    guard configuration.live.splitEvery != nil else { return false }
    // Split into parts: it goes on unless its parts say it is over.
    let parts = DASHLiveParts.existing(in: folder)
    guard !parts.isEmpty else { return false }
    if case .over = DASHLiveParts.next(after: parts, recordFor: configuration.live.recordFor) {
      return false
    }
    return true
  }

  /// Refuses to run into a folder whose live recording ended: its segments have left the
  /// origin's window, and a run would start another recording, or a download, over it.
  ///
  /// - Throws: ``Transfer/Error`` `invalidMedia` saying so.
  func refuseEndedRecording() throws(Transfer.Error) {
    guard let state = DASHLiveState.read(in: folder), !state.goesOn else { return }
    throw failure(
      "this folder holds a live recording that ended (\(state.finished?.rawValue ?? "")):"
        + " its segments have left the live window and cannot be fetched again;"
        + " delete it and record the presentation again")
  }

  /// Records the live presentation `mpd` (see ``DASHLiveRecorder``) from its last Period,
  /// where the live edge is, and on into each Period that follows it; in parts with
  /// `--split` (``recordParts(every:onProgress:)``).
  ///
  /// - Throws: ``Transfer/Error``: `invalidMedia` for a presentation without
  ///   `availabilityStartTime` (which ISO/IEC 23009-1 requires of a dynamic MPD), a
  ///   protected one, one with nothing to record or what the recorder cannot record yet;
  ///   the recorder's errors.
  func recordLive(_ mpd: MPD, onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    async throws(Transfer.Error) -> StreamOutcome
  {
    if mpd.isLive, mpd.live.availabilityStartTime == nil {
      throw failure(
        "\(url.redactedForDisplay) is a live presentation (MPD type=\"dynamic\") without"
          + " availabilityStartTime, so when its segments are available is not known;"
          + " it cannot be recorded")
    }
    if let every = configuration.live.splitEvery {
      onLiveRecording?(url)
      return try await recordParts(every: every, onProgress: onProgress)
    }
    let paths = try livePaths(in: mpd, period: mpd.periods.count - 1)
    let first = try await fetchLiveManifest()
    onLiveRecording?(url)
    let recorder = DASHLiveRecorder(download: self, paths: paths, options: configuration.live)
    return try await recorder.run(first: first, onProgress: onProgress)
  }

  /// The Representations to record in Period `period` of the live `mpd`: the video and
  /// audio ones the VOD choice picks there.
  ///
  /// - Throws: ``Transfer/Error`` `invalidMedia` for a protected Period or one with no
  ///   video or audio.
  func livePaths(in mpd: MPD, period: Int) throws(Transfer.Error) -> [RepresentationPath] {
    let selection = try Self.downloadable(mpd, configuration: configuration, url: url, live: true)
    let paths = selection.paths.filter { path in
      guard path.period == period else { return false }
      let track = DASHTrack(mpd.periods[path.period].adaptationSets[path.adaptationSet])
      return track == .video || track == .audio
    }
    guard !paths.isEmpty else {
      throw failure(
        "\(url.redactedForDisplay) is a live presentation with no video or audio to record"
          + " in its Period \(period + 1)")
    }
    return paths
  }
}
