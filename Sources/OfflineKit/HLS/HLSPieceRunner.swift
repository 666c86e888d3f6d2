import CSystem
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
  func run(onProgress: @escaping @Sendable (HLSDownload.Progress) -> Void)
    async throws(Transfer.Error) -> Int64
  {
    let tally = Tally(plan: plan)
    let reporter = Task {
      while !Task.isCancelled {
        onProgress(tally.progress())
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
    reporter.cancel()
    if case .failure(let error) = outcome { throw error }
    syncFileSystem()
    onProgress(tally.progress())
    return tally.progress().bytes
  }

  private func fetch(_ index: Int, tally: Tally) async -> Result<Void, Transfer.Error> {
    let piece = plan.pieces[index]
    let destination = download.folder.appending(path: piece.local).path
    let transfer = Transfer(
      url: piece.remote, destination: destination,
      journal: download.journal!, transport: download.transport,
      options: Transfer.Options(
        retry: download.retry, progressInterval: .milliseconds(250), replacesExistingFile: true,
        slice: piece.slice, syncsEachFile: false))
    do {
      let outcome = try await download.pieceRetry.run(url: piece.remote, destination: destination) {
        () async throws(Transfer.Error) -> Transfer.Outcome in
        try await transfer.run { event in
          if case .progress(let progress) = event { tally.inFlight(index, bytes: progress.bytes) }
        }
      }
      tally.finished(index, length: outcome.length)
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  /// One `syncfs` for every piece written without a per-file fsync.
  private func syncFileSystem() {
    let fd = open(download.folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = ok_syncfs(fd)
    close(fd)
  }
}

/// Aggregate progress of the pieces, updated from their tasks.
final class Tally: Sendable {
  private struct State {
    var inFlight: [Int: Int64] = [:]
    var doneBytes: Int64 = 0
    /// Media segments in the finished pieces.
    var done = 0
    var doneEstimate: Int64 = 0
    var doneWholeActual: Int64 = 0
    var doneWholeEstimate: Int64 = 0
    var remainingEstimate: Int64
    var remainingWhole = 0
  }

  private let state: Locked<State>
  private let estimates: [Int64]
  private let isWhole: [Bool]
  private let segments: [Int]

  init(plan: HLSPlan) {
    estimates = plan.pieces.map(\.estimatedBytes)
    isWhole = plan.pieces.map { $0.slice == nil }
    segments = plan.pieces.map(\.segments)
    state = Locked(
      State(
        remainingEstimate: plan.estimatedBytes,
        remainingWhole: plan.pieces.filter { $0.slice == nil }.count))
  }

  func inFlight(_ index: Int, bytes: Int64) {
    state.withLock { $0.inFlight[index] = bytes }
  }

  func finished(_ index: Int, length: Int64) {
    state.withLock { state in
      state.inFlight[index] = nil
      state.done += segments[index]
      state.doneBytes += length
      state.remainingEstimate -= estimates[index]
      if isWhole[index] {
        state.remainingWhole -= 1
        state.doneWholeActual += length
        state.doneWholeEstimate += estimates[index]
      }
    }
  }

  /// Bytes done and in flight, against the known sizes plus the remaining estimates,
  /// corrected by how far off the estimates of finished whole segments were.
  func progress() -> HLSDownload.Progress {
    state.withLock { state in
      let flying = state.inFlight.values.reduce(0, +)
      let correction =
        state.doneWholeEstimate > 0
        ? Double(state.doneWholeActual) / Double(state.doneWholeEstimate) : 1
      let remaining = Int64(Double(state.remainingEstimate) * correction)
      let bytes = state.doneBytes + flying
      return HLSDownload.Progress(
        bytes: bytes, total: max(bytes, state.doneBytes + remaining),
        totalIsEstimate: state.remainingWhole > 0, segmentsDone: state.done,
        segmentsPlanned: segments.reduce(0, +))
    }
  }
}
