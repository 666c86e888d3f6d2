import Foundation
import OfflineLocks
import OfflineStore

extension OfflineManager {
  /// How long a playback run waits for a player's next ask before it ends.
  static let playbackRunIdle: Duration = .seconds(10)

  /// Starts a playback run of suspended content `record` unless one goes on: its download
  /// fetching only what players ask for (a stream's pieces, a file's ranges), into its own
  /// files and journal, while the content stays `suspended` (no state changes, no queue
  /// slot); it ends once no player asked for ``playbackRunIdle``. A resume, cancel or
  /// delete stops it first (``stopPlaybackRun(_:)``).
  func startPlaybackRun(_ record: ContentRecord) {
    guard playbackRuns[record.id] == nil, let url = URL(string: record.url),
      let stored = try? DownloadConfiguration.stored(in: record),
      let (session, mirrors, _) = try? fetchContext(of: record, url: url)
    else { return }
    let pieces: PieceChecks?
    do {
      pieces = record.hasPieceChecks ? try keptPieceChecks(of: record.id) : nil
    } catch {
      return  // never checked less than the content asks
    }
    let work = self.work(
      record, kind: ContentDownload.Kind(url), session: session, mirrors: mirrors,
      pieces: pieces, options: stored,
      onlyWhatPlayersAsk: Self.playbackRunIdle)
    let id = record.id
    playbackRuns[id] = Task { [weak self] in
      let last = Locked<OfflineProgress?>(nil)
      _ = await work { report in
        if case .progress(let progress) = report { last.withLock { $0 = progress } }
      }
      await self?.didEndPlaybackRun(id, last: last.withLock { $0 })
    }
  }

  /// Stops the playback run of content `id`, if one goes on, and waits until it has ended.
  func stopPlaybackRun(_ id: String) async {
    guard let run = playbackRuns[id] else { return }
    run.cancel()
    await run.value
  }

  /// Stops every playback run and waits until they have ended.
  func stopPlaybackRuns() async {
    for id in Array(playbackRuns.keys) { await stopPlaybackRun(id) }
  }

  /// A playback run of content `id` ended: what it fetched is told as progress and saved
  /// with the suspended content's record and manifest, when it is still suspended.
  private func didEndPlaybackRun(_ id: String, last: OfflineProgress?) {
    playbackRuns[id] = nil
    guard let last, let record = try? index.contents.record(id: id), record.state == .suspended
    else { return }
    _ = tellProgress(last, to: id)
    _ = logging("saving what a player fetched (the journal keeps the bytes)", id: id) {
      try index.contents.updateProgress(
        id: id, bytes: last.bytes, total: last.total, totalIsEstimate: last.totalIsEstimate)
    }
    recordSuspended(id)
  }
}
