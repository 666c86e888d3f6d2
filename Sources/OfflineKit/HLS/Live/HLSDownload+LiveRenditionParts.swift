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
    var done = StreamOutcome(
      index: indexURL(), bytes: 0, segments: 0, initSections: 0, keys: 0, files: 0, duration: 0)
    while true {
      let parts = LiveParts.existing(in: folder)
      let index: Int
      switch LiveParts.next(after: parts, recordFor: configuration.live.recordFor) {
      case .over(let last):
        if done.segments == 0, last > 0 {
          done.index = inFolder(LiveParts.folder(last, in: folder)).indexURL()
        }
        return done
      case .goOn(let part):
        index = part
      case .start(let part, _):
        index = part
        try seedRenditionPart(part, of: renditions)
      }
      var options = configuration.live
      options.recordFor = every
      if let whole = configuration.live.recordFor {
        let left = whole.inSeconds - LiveParts.recorded(parts.filter { $0.index < index })
        options.recordFor = .seconds(min(every.inSeconds, max(left, 0)))
      }
      let current: LiveRenditions
      if let fetched {
        current = fetched
      } else {
        current = try await reloaded(renditions)
      }
      fetched = nil
      let before = done
      let outcome = try await inFolder(LiveParts.folder(index, in: folder)).recordLiveRenditions(
        current, options: options
      ) { progress in
        var progress = progress
        progress.bytes += before.bytes
        progress.segmentsDone = progress.segmentsDone.map { $0 + before.segments }
        onProgress(progress)
      }
      done.index = outcome.index
      done.bytes += outcome.bytes
      done.segments += outcome.segments
      done.files += outcome.files
      done.duration += outcome.duration
    }
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
