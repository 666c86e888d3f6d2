import Foundation
import OfflineLocks

extension PieceRunner {
  /// Fetches piece `index` from each of its sources in ``failover``'s order until one
  /// serves it (``StreamFailover``): `first` is its transfer from its own URL; the others
  /// are the same transfer at the piece's ``StreamPiece/alternates``, through the same
  /// (watched) session. A piece an earlier run completed (`complete`) asks its own URL
  /// first, whose record says so without a request. Returns whether it was fetched (false
  /// when it was on disk already), or the last source's error.
  func fetchFromSources(
    _ index: Int, first: Transfer, complete: Bool, tally: Locked<StreamProgressTally>,
    board: LandedPieces, playback: StreamPlayback?
  ) async -> Swift.Result<Bool, Transfer.Error> {
    let piece = pieces[index]
    let destination = first.destination
    let sources = failover.order(for: piece, demoting: !complete)
    var lastError: Transfer.Error?
    for (position, (source, url)) in sources.enumerated() {
      let isLast = position == sources.count - 1
      if position > 0 || url != piece.remote {
        // What another source left in the part goes on here only with `If-Range`.
        Transfer.carryOver(destination: destination, to: url, journal: journal)
      }
      var configuration = first.configuration
      if !isLast {
        // Another source waits: a cut is resumed once at once, not after the session's
        // backoff (about half a minute for a CDN that refuses connections).
        configuration.retry.maximumAttempts = min(configuration.retry.maximumAttempts, 2)
      }
      let here = Transfer(
        url: url, destination: destination, journal: journal, session: first.session,
        configuration: configuration, role: first.role)
      do {
        let outcome = try await fetch(
          index, with: position == 0 ? here : here.readingItsRecord(), tally: tally,
          endsAtOnce: isLast ? { _ in false } : StreamFailover.movesOnAtOnce)
        failover.didServe(source, bytes: outcome.bytesReceived)
        tally.withLock { $0.pieceFinished(index, length: outcome.length) }
        if let pack = piece.pack, let region = outcome.pack {
          board.didPack(
            piece.local, at: PackedPiece(pack: pack, offset: region.offset, length: outcome.length))
        }
        return .success(!outcome.wasAlreadyComplete)
      } catch {
        lastError = error
        guard !isLast, StreamFailover.triesNext(after: error), !Task.isCancelled else { break }
        failover.didFail(source, error: error)
      }
    }
    playback?.didStop(piece.local)
    return .failure(
      lastError ?? Transfer.Error(.canceled, url: piece.remote, destination: destination))
  }

  /// Fetches a piece through `transfer` at one source, trying it again as ``pieceRetry``
  /// says (ending at once for the errors `endsAtOnce` picks).
  private func fetch(
    _ index: Int, with transfer: Transfer, tally: Locked<StreamProgressTally>,
    endsAtOnce: (Transfer.Error) -> Bool
  ) async throws(Transfer.Error) -> Transfer.Outcome {
    let piece = pieces[index]
    let playback = self.playback
    let tries = Locked(0)
    return try await pieceRetry.run(
      url: transfer.url, destination: transfer.destination, endsAtOnce: endsAtOnce
    ) { () async throws(Transfer.Error) -> Transfer.Outcome in
      // A failed try may have left a record: the next one reads it.
      let attempt =
        tries.withLock {
          $0 += 1; return $0
        } == 1 ? transfer : transfer.readingItsRecord()
      return try await attempt.run { event in
        switch event {
        case .progress(let progress):
          tally.withLock { $0.pieceProgress(index, bytes: progress.bytes, total: progress.total) }
          playback?.didProgress(piece.local, length: progress.total)
        case .restarted: playback?.didRestart(piece.local)
        default: break
        }
      }
    }
  }
}
