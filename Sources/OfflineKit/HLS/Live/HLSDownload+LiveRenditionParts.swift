import Foundation
import HLSPlaylist

extension HLSDownload {
  /// Records a live stream with renditions (``LiveRenditions``) as consecutive parts of about
  /// `every` of media each, in ``folder``'s `part001/`, `part002/`…, each part an ordinary
  /// recording with renditions (its master, `video/`, `audio0-en/`…), as
  /// ``recordParts(every:first:at:loadedAt:variables:onProgress:)`` does for one playlist.
  ///
  /// The variant's share decides where a part ends (``LiveParts`` reads the parts by their
  /// variant's state); every rendition records the same share of media, and in the next part
  /// each playlist starts at the first number its own recording in the part before did not
  /// settle, so no playlist loses or repeats a segment between two parts.
  ///
  /// - Parameter onProgress: bytes and segments of the parts this run recorded, added up.
  /// - Returns: The outcome of the last part, its bytes, segments and duration those of
  ///   every part this run recorded.
  func recordLiveRenditionParts(
    _ renditions: LiveRenditions, every: Duration,
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    var fetched: LiveRenditions? = renditions
    return try await recordEachPart(
      every: every,
      startingPart: { (part, _) throws(Transfer.Error) in
        try seedRenditionPart(part, of: renditions)
      },
      recording: { (part, options, report) async throws(Transfer.Error) -> StreamOutcome in
        let current: LiveRenditions
        if let fetched {
          current = fetched
        } else {
          current = try await reloaded(renditions)
        }
        fetched = nil
        return try await part.recordLiveRenditions(current, options: options, onProgress: report)
      },
      endedBefore: { sequence in
        // The variant's numbers decide where parts end (``LiveParts``).
        await hasEnded(
          renditions.parts[0].media.url, before: sequence, importing: renditions.variables,
          silence: configuration.live.endAfterSilence)
      }, onProgress: onProgress)
  }

  /// Makes part `index`'s folder and seeds each of its playlists' recordings to start at the
  /// first number that playlist's recording in part `index - 1` did not settle.
  private func seedRenditionPart(_ index: Int, of renditions: LiveRenditions)
    throws(Transfer.Error)
  {
    let previous = LiveParts.folder(index - 1, in: folder)
    let current = LiveParts.folder(index, in: folder)
    for part in renditions.parts {
      let earlier = LiveRecordState.read(
        in: previous.appending(path: part.folder, directoryHint: .isDirectory),
        replayingLog: false)
      guard let earlier, let next = earlier.journal.nextSequence else { continue }
      let folder = current.appending(path: part.folder, directoryHint: .isDirectory)
      do throws(TransferFileError) {
        try FileSteps.createFolder(folder.path)
      } catch {
        throw Transfer.Error(.file(error), url: url, destination: folder.path)
      }
      try LiveParts.seed(startingAt: next, playlistURL: earlier.playlistURL).write(in: folder)
    }
  }

  /// `renditions` with each media playlist fetched again now.
  private func reloaded(_ renditions: LiveRenditions) async throws(Transfer.Error)
    -> LiveRenditions
  {
    var result = renditions
    for index in result.parts.indices {
      let url = result.parts[index].media.url
      let loadedAt = session.clock.instant
      let media = try await mediaPlaylist(at: url, importing: renditions.variables)
      result.parts[index].media = FetchedMedia(url: url, playlist: media, loadedAt: loadedAt)
    }
    return result
  }
}
