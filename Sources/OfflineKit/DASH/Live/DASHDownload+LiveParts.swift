import DASHManifest
import Foundation

extension DASHDownload {
  /// Records the live presentation as consecutive parts of about `every` of media each
  /// (``DASHLiveParts``), in ``folder``'s `part001/`, `part002/`…, from where the parts
  /// there say (a rerun goes on as the first run left it), until the recording ends for
  /// another reason than a part's share: the presentation's end, silence, `--record-until`,
  /// the whole `--record-for`, a stop. A part that reached its share as the presentation
  /// ended is the last: no empty part follows it.
  ///
  /// Each part is recorded like an unsplit recording into its folder
  /// (``DASHLiveRecorder``), with ``LiveRecordingOptions/recordFor`` its share; before the
  /// next starts, the part is cut at one media time for all its tracks and its offline MPD
  /// written again, and the next starts each track where the cut left it.
  ///
  /// - Parameter onProgress: bytes and segments of the parts this run recorded, added up.
  /// - Returns: The outcome of the last part, its bytes, segments and duration those of
  ///   every part this run recorded.
  func recordParts(every: Duration, onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    async throws(Transfer.Error) -> StreamOutcome
  {
    var tally = LivePartTally(index: indexURL)
    while true {
      let parts = DASHLiveParts.existing(in: folder)
      let index: Int
      switch DASHLiveParts.next(after: parts, recordFor: configuration.live.recordFor) {
      case .over(let last):
        if tally.done.segments == 0, last > 0 {
          tally.done.index = inFolder(LiveParts.folder(last, in: folder)).indexURL
        }
        return tally.done
      case .goOn(let part):
        index = part
      case .start(let part, let kept, let seed):
        // Ended with nothing after: the part before keeps all it recorded and is the last,
        // as through the queue (``QueuedLivePart/hasEnded(_:after:silence:)``).
        if let state = parts.last?.state,
          await QueuedLivePart.hasEnded(
            self, after: state, silence: configuration.live.endAfterSilence)
        {
          if tally.done.segments == 0 {
            tally.done.index = inFolder(LiveParts.folder(part - 1, in: folder)).indexURL
          }
          return tally.done
        }
        index = part
        if let state = parts.last?.state {
          try await cutPart(part - 1, from: state, to: kept)
        }
        try createPartFolder(part)
        try seed.write(in: LiveParts.folder(part, in: folder))
      }
      try createPartFolder(index)
      let options = LivePartTally.options(
        configuration.live, every: every,
        recordedBefore: DASHLiveParts.recorded(parts.filter { $0.index < index }))
      let part = inFolder(LiveParts.folder(index, in: folder))
      let first = try await part.fetchLiveManifest()
      let paths = try part.livePaths(in: first.mpd, period: first.mpd.periods.count - 1)
      let recorder = DASHLiveRecorder(download: part, paths: paths, options: options)
      tally.add(try await recorder.run(first: first, onProgress: tally.reporting(to: onProgress)))
    }
  }

  /// Cuts part `index`, whose state is `state`, to `kept` (``DASHLiveParts/cut(_:)``).
  private func cutPart(_ index: Int, from state: DASHLiveState, to kept: DASHLiveState)
    async throws(Transfer.Error)
  {
    try await inFolder(LiveParts.folder(index, in: folder)).cutRecording(from: state, to: kept)
  }

  /// Cuts the live recording in this download's folder, whose state is `state`, to `kept`:
  /// its state and offline MPDs are written again from the live MPD, then the segments cut
  /// off are deleted (the next part fetches them again). A rerun after a kill in between
  /// cuts it again to the same. For a part folder of `get --split` and for a content that is
  /// a part of a recording split through the queue alike.
  func cutRecording(from state: DASHLiveState, to kept: DASHLiveState)
    async throws(Transfer.Error)
  {
    let manifest = try await fetchLiveManifest()
    let recorder = DASHLiveRecorder(download: self, paths: [], options: configuration.live)
    var writer = DASHLiveStateWriter(folder: folder, resuming: false)  // writes it whole
    try recorder.save(kept, with: &writer, changed: [], mpd: manifest.mpd, final: true)
    for local in DASHLiveParts.cutOff(state, kept: kept) {
      try? FileManager.default.removeItem(at: folder.appending(path: local))
    }
  }

  /// Creates the folder of part `index` (and the output folder) when missing.
  private func createPartFolder(_ index: Int) throws(Transfer.Error) {
    let partFolder = LiveParts.folder(index, in: folder)
    do {
      try FileSteps.createFolder(partFolder.path)
    } catch {
      throw Transfer.Error(.file(error), url: url, destination: partFolder.path)
    }
  }

  /// This download into `folder` instead: one part of a split recording.
  func inFolder(_ folder: URL) -> DASHDownload {
    var download = self
    download.folder = folder
    return download
  }
}
