import Foundation
import HLSPlaylist
import OfflineLocks

/// Writes playlists as text.
enum PlaylistWriterBridge {
  static func text(_ playlist: Playlist) -> String { PlaylistWriter.write(playlist) }
}

/// Downloads the pieces of a plan, several at once, each a resumable ``Transfer`` into the
/// content's folder; reports aggregate progress; syncs the folder's file system at the end.
struct HLSPieceRunner: Sendable {
  let download: HLSDownload
  let plan: HLSPlan

  /// Returns the bytes of every piece.
  func run(onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    async throws(Transfer.Error) -> Int64
  {
    let tally = Locked(HLSProgressTally(plan: plan))
    let rate = RateEstimator()
    let report = { @Sendable (progress: HLSDownload.Progress) in
      onProgress(
        OfflineProgress(
          bytes: progress.bytes, total: progress.total, totalIsEstimate: progress.totalIsEstimate,
          segmentsDone: progress.segmentsDone, segmentsTotal: progress.segmentsPlanned,
          bytesPerSecond: rate.update(bytes: progress.bytes)))
    }
    let reporter = Task {
      while !Task.isCancelled {
        report(tally.withLock { $0.progress() })
        try? await Task.sleep(for: .milliseconds(250))
      }
    }
    defer { reporter.cancel() }
    let limit = download.options.parallelSegments
    let pieces = plan.pieces
    let outcome: Result<Void, Transfer.Error> = await withTaskGroup(
      of: Result<Void, Transfer.Error>.self
    ) { group in
      var next = 0
      func addNext() {
        guard next < pieces.count else { return }
        let index = next
        next += 1
        group.addTask { await fetch(index, tally: tally) }
      }
      for _ in 0..<min(limit, pieces.count) { addNext() }
      for await result in group {
        if case .failure = result {
          group.cancelAll()
          return result
        }
        addNext()
      }
      return .success(())
    }
    // The reporter's last tick must land before the final report, never after it.
    reporter.cancel()
    await reporter.value
    if case .failure(let error) = outcome { throw error }
    syncFileSystem()
    let last = tally.withLock { $0.progress() }
    report(last)
    return last.bytes
  }

  private func fetch(
    _ index: Int, tally: Locked<HLSProgressTally>
  ) async -> Result<Void, Transfer.Error> {
    let piece = plan.pieces[index]
    let destination = download.folder.appending(path: piece.local).path
    let transfer = Transfer(
      url: piece.remote, destination: destination,
      journal: download.journal!, transport: download.transport,
      options: Transfer.Options(
        retry: download.retry, progressInterval: .milliseconds(250), replacesExistingFile: true,
        slice: piece.slice, syncsEachFile: false),
      requestOptions: download.requestOptions, cookieJar: download.cookieJar)
    tally.withLock { $0.pieceStarted(index, total: piece.slice?.length) }
    do {
      let outcome = try await download.pieceRetry.run(url: piece.remote, destination: destination) {
        () async throws(Transfer.Error) -> Transfer.Outcome in
        try await transfer.run { event in
          if case .progress(let progress) = event {
            tally.withLock { $0.pieceProgress(index, bytes: progress.bytes, total: progress.total) }
          }
        }
      }
      tally.withLock { $0.pieceFinished(index, length: outcome.length) }
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  /// One `syncfs` for every piece written without a per-file fsync.
  private func syncFileSystem() {
    let fd = open(download.folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = Durability.syncFileSystem(holding: fd)
    close(fd)
  }
}
