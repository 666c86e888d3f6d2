import Foundation
import OfflineStore

extension SegmentedTransfer {
  /// How many times one piece is fetched again after a bad check before the download fails.
  static let mendingRounds = 3

  /// The ledger of the pieces of a file of `total` bytes with piece hashes
  /// (``Transfer/Configuration/pieces``, else `checks`: a peer's chunk hashes), with the
  /// pieces the journal records as verified; nil without piece hashes, or when they
  /// describe another length.
  func pieceLedger(total: Int64, orChecks checks: PieceChecks? = nil) throws(Transfer.Error)
    -> PieceLedger?
  {
    guard let pieces = transfer.configuration.pieces ?? checks, pieces.size == total else {
      return nil
    }
    let verified = try transfer.indexStep { () throws(StoreError) in
      try journal.verifiedPieces(forDestination: destination)
    }
    return PieceLedger(pieces, verified: verified)
  }

  /// Checks every piece holding a byte of `bytes` whose bytes are now all written and that
  /// no one checked yet (``checkPiece(_:ledger:board:fd:sources:onEvent:)``); run on a
  /// ``PieceChecker``'s queue as bytes land. A piece the request that wrote `bytes` wrote
  /// whole (from `readBackFrom`, where its read-back began, to the end of `bytes`) is left
  /// to its digest from that read-back (``judge(_:sha256:ledger:board:sources:onEvent:)``),
  /// which costs no second read of the file. A piece the file could not be read for is left
  /// unchecked: ``settlePieces(_:fd:total:validator:sources:ledger:onEvent:)`` checks it
  /// again and reports the error.
  func checkLanded(
    _ bytes: Range<Int64>, readBackFrom: Int64, ledger: PieceLedger, board: RangeBoard,
    fd: Int32, sources: MirrorSources, onEvent: @Sendable (Transfer.Event) -> Void
  ) {
    for index in ledger.piecesNotReadBack(landed: bytes, readBackFrom: readBackFrom)
    where board.isWritten(ledger.checks.range(ofPiece: index)) && ledger.claim(index) {
      do {
        try checkPiece(
          index, ledger: ledger, board: board, fd: fd, sources: sources, onEvent: onEvent)
      } catch {
        ledger.unclaim(index)
      }
    }
  }

  /// Checks every piece that is written and not verified: after a resume, those written
  /// before the stop whose check the journal does not record.
  func checkWrittenPieces(
    ledger: PieceLedger, board: RangeBoard, fd: Int32, sources: MirrorSources,
    onEvent: @Sendable (Transfer.Event) -> Void
  ) throws(Transfer.Error) {
    for index in ledger.unverified
    where board.isWritten(ledger.checks.range(ofPiece: index)) && ledger.claim(index) {
      try checkPiece(
        index, ledger: ledger, board: board, fd: fd, sources: sources, onEvent: onEvent)
    }
  }

  /// Hashes piece `index` (claimed in `ledger`) from the file and settles it
  /// (``settle(_:right:ledger:board:sources:onEvent:)``).
  func checkPiece(
    _ index: Int, ledger: PieceLedger, board: RangeBoard, fd: Int32, sources: MirrorSources,
    onEvent: @Sendable (Transfer.Event) -> Void
  ) throws(Transfer.Error) {
    let right = try transfer.fileStep { () throws(TransferFileError) in
      try ledger.checks.isRight(piece: index, in: fd)
    }
    settle(index, right: right, ledger: ledger, board: board, sources: sources, onEvent: onEvent)
  }

  /// Settles piece `index` by `sha256`, the digest of its bytes as one request wrote them
  /// whole, read back after their write (``HashBehind``); run on a ``PieceChecker``'s queue.
  /// The request began when ``PieceLedger/badFinds`` was `finds`. Nothing happens when the
  /// piece is verified already, being checked, or was found bad since the request began
  /// (``PieceLedger/claim(_:writtenSince:)``).
  func judge(
    _ index: Int, sha256: String, finds: Int, ledger: PieceLedger, board: RangeBoard,
    sources: MirrorSources, onEvent: @Sendable (Transfer.Event) -> Void
  ) {
    guard ledger.claim(index, writtenSince: finds) else { return }
    settle(
      index, right: sha256 == ledger.checks.hashes[index], ledger: ledger, board: board,
      sources: sources, onEvent: onEvent)
  }

  /// Settles piece `index` (claimed in `ledger`), found `right` or not. A right one is
  /// verified (the next checkpoint journals it); a bad one penalises every source that wrote
  /// a byte of it (``MirrorSources/didServeBadPiece(_:)``, a drop told as
  /// ``Transfer/Event/sourceDropped(_:reason:)``), and its bytes are made to fetch again on
  /// `board` (told as ``Transfer/Event/refetchingPieces(_:)``), unless it was bad more than
  /// ``mendingRounds`` times: then it stays failed and ``settlePieces(_:fd:total:validator:sources:ledger:onEvent:)``
  /// fails the download.
  private func settle(
    _ index: Int, right: Bool, ledger: PieceLedger, board: RangeBoard, sources: MirrorSources,
    onEvent: @Sendable (Transfer.Event) -> Void
  ) {
    if right {
      ledger.didVerify(index)
      return
    }
    let bytes = ledger.checks.range(ofPiece: index)
    digests.forget(bytes)
    let (culprits, dropped) = sources.didServeBadPiece(bytes)
    for (url, reason) in dropped {
      onEvent(.sourceDropped(url, reason: reason))
    }
    guard
      ledger.didFindBad(
        index, rounds: Self.mendingRounds, reopen: { board.reopen(bytes, avoiding: culprits) })
    else { return }
    onEvent(.refetchingPieces([index]))
  }

  /// Once every range is written: checks the pieces no connection checked, fetches again
  /// those found bad (alone, from another source when there is one), until every piece is
  /// verified. The chunk digests of every piece found bad in the run are forgotten, so the
  /// finish hashes those chunks from the file as it now is.
  ///
  /// - Throws: ``Transfer/Error``: `checksumMismatch` naming the first piece still bad after
  ///   ``mendingRounds`` fetches; the file's and the index's own errors.
  func settlePieces(
    _ board: RangeBoard, fd: Int32, total: Int64, validator: String, sources: MirrorSources,
    ledger: PieceLedger, onEvent: @escaping @Sendable (Transfer.Event) -> Void
  ) async throws {
    for _ in 0...Self.mendingRounds + 1 {
      try checkWrittenPieces(
        ledger: ledger, board: board, fd: fd, sources: sources, onEvent: onEvent)
      if let failed = ledger.firstFailed {
        throw transfer.failure(
          .checksumMismatch(
            expected: ledger.checks.hashes[failed], actual: "another SHA-256 for piece \(failed)"
          ))
      }
      if board.isComplete, ledger.unverified.isEmpty { break }
      checkpoint(board, fd: fd, ledger: ledger)  // the bad pieces' ranges, before their bytes
      try await fetchAll(
        board, fd: fd, total: total, validator: validator, sources: sources, ledger: ledger,
        onEvent: onEvent)
    }
    if let first = ledger.unverified.first {
      throw transfer.failure(
        .checksumMismatch(
          expected: ledger.checks.hashes[first], actual: "another SHA-256 for piece \(first)"))
    }
    for bytes in ledger.reopened { digests.forget(bytes) }
  }
}
