import Foundation
import HLSPlaylist

extension HLSDownload {
  /// Records the live media playlist at `playlistURL` as consecutive parts of about `every`
  /// of media each (``LiveParts``), in ``folder``'s `part001/`, `part002/`…, from where the
  /// parts there say (a rerun goes on as the first run left it), until the recording ends
  /// for another reason than a part's share: `EXT-X-ENDLIST`, silence, `--record-until`,
  /// the whole `--record-for`, a stop.
  ///
  /// Each part is recorded like an unsplit recording into its folder, with
  /// ``LiveRecordingOptions/recordFor`` its share; the next starts at the first number the
  /// part before did not settle. `first`, loaded at `loadedAt`, starts the first part this
  /// run records; the parts after load the playlist again.
  ///
  /// - Parameter onProgress: bytes and segments of the parts this run recorded, added up.
  /// - Returns: The outcome of the last part, its bytes, segments and duration those of
  ///   every part this run recorded.
  func recordParts(
    every: Duration, first: MediaPlaylist, at playlistURL: URL,
    loadedAt: ContinuousClock.Instant, variables: [String: String],
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    var playlist: MediaPlaylist? = first
    var loaded = loadedAt
    return try await recordEachPart(
      every: every,
      startingPart: { (part, sequence) throws(Transfer.Error) in
        let partFolder = LiveParts.folder(part, in: folder)
        try fileStep(partFolder) { () throws(TransferFileError) in
          try FileSteps.createFolder(partFolder.path)
        }
        try LiveParts.seed(startingAt: sequence, playlistURL: playlistURL).write(in: partFolder)
      },
      recording: { (part, options, report) async throws(Transfer.Error) -> StreamOutcome in
        let media: MediaPlaylist
        if let playlist {
          media = playlist
        } else {
          loaded = session.clock.instant
          media = try await mediaPlaylist(at: playlistURL, importing: variables)
        }
        playlist = nil
        return try await part.recordOne(
          media, at: playlistURL, loadedAt: loaded, options: options, onProgress: report)
      },
      endedBefore: { sequence in
        await hasEnded(
          playlistURL, before: sequence, importing: variables,
          silence: configuration.live.endAfterSilence)
      }, onProgress: onProgress)
  }

  /// Whether the media playlist at `url` has ended with no segment numbered `sequence` or
  /// later, so a part starting there would record nothing: `EXT-X-ENDLIST` with nothing from
  /// `sequence` on, or nothing new listed for `silence` (six target durations when nil, the
  /// recorder's own end by silence). Through ``LiveEndPoll`` as DASH's check, a playlist
  /// that lists nothing new yet is fetched again every target duration, since an origin may add `EXT-X-ENDLIST` a moment
  /// after its last segment. False as soon as a segment numbered `sequence` or later is
  /// listed, when the playlist cannot be fetched (the part finds out), or on a cancel.
  func hasEnded(
    _ url: URL, before sequence: Int, importing variables: [String: String], silence: Duration?
  ) async -> Bool {
    await LiveEndPoll.hasEnded(clock: session.clock, silence: silence) {
      guard let media = try? await mediaPlaylist(at: url, importing: variables) else {
        return nil
      }
      if (media.segments.last?.mediaSequenceNumber ?? sequence - 1) >= sequence { return .more }
      return media.hasEndList ? .ended : .notYet(wait: .seconds(max(media.targetDuration, 1)))
    }
  }

  /// The loop of a split recording of a playlist, alone or with its renditions: from where
  /// the parts in ``folder`` say (``LiveParts/next(after:recordFor:)``), each part recorded
  /// by `recording` into its folder with its share (``LivePartTally``), a new one started by
  /// `startingPart` (its index, and the number the part before did not settle), until the
  /// parts say the recording is over, or `endedBefore` says the stream ended before the
  /// number a new part would start at (so no empty last part is made).
  func recordEachPart(
    every: Duration,
    startingPart: (Int, Int) throws(Transfer.Error) -> Void,
    recording: (
      HLSDownload, LiveRecordingOptions, @escaping @Sendable (OfflineProgress) -> Void
    ) async throws(Transfer.Error) -> StreamOutcome,
    endedBefore: (Int) async -> Bool,
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    var tally = LivePartTally(index: indexURL())
    while true {
      let parts = LiveParts.existing(in: folder)
      let index: Int
      switch LiveParts.next(after: parts, recordFor: configuration.live.recordFor) {
      case .over(let last):
        return tally.ended(afterPart: last, of: self)
      case .goOn(let part):
        index = part
      case .start(let part, let sequence):
        if await endedBefore(sequence) { return tally.ended(afterPart: part - 1, of: self) }
        index = part
        try startingPart(part, sequence)
      }
      let options = LivePartTally.options(
        configuration.live, every: every,
        recordedBefore: LiveParts.recorded(parts.filter { $0.index < index }))
      tally.add(
        try await recording(
          inFolder(LiveParts.folder(index, in: folder)), options,
          tally.reporting(to: onProgress)))
    }
  }

  /// Runs a file step on `folder`, its error a ``Transfer/Error`` naming it.
  private func fileStep(_ folder: URL, _ step: () throws(TransferFileError) -> Void)
    throws(Transfer.Error)
  {
    do {
      try step()
    } catch {
      throw Transfer.Error(.file(error), url: url, destination: folder.path)
    }
  }
}

extension LivePartTally {
  /// The outcome of a split recording whose last part is `last`: what this run recorded,
  /// and when it recorded nothing, the last part's offline playlist.
  fileprivate func ended(afterPart last: Int, of download: HLSDownload) -> StreamOutcome {
    var done = self.done
    if done.segments == 0, last > 0 {
      done.index = download.inFolder(LiveParts.folder(last, in: download.folder)).indexURL()
    }
    return done
  }
}
