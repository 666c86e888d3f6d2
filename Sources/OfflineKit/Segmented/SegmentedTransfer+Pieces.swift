import Foundation
import OfflineStore

extension SegmentedTransfer {
  /// How many times bad pieces are fetched again before the download fails.
  static let mendingRounds = 3

  /// With piece hashes (``Transfer/Configuration/pieces``), checks every piece of the
  /// written file; each bad one is fetched again alone, from another source when there is
  /// one (the source that wrote it is penalised, ``MirrorSources/didServeBadPiece(_:)``),
  /// its range journalled first so a crash keeps every other byte. At most
  /// ``mendingRounds`` rounds.
  ///
  /// The pieces are checked once all ranges are written, not as each lands: a bad piece
  /// costs a read of the file and a request of that piece, never more bytes from the
  /// network.
  ///
  /// The check that finds every piece right also hashes the whole file in the same read:
  /// its SHA-256 is returned, so the finish does not read the file again for it.
  ///
  /// - Returns: the whole file's SHA-256 when pieces were checked; nil without pieces.
  /// - Throws: ``Transfer/Error``: `checksumMismatch` naming the first piece still bad after
  ///   the last round; the file's and the index's own errors.
  func mendPieces(
    fd: Int32, total: Int64, validator: String, sources: MirrorSources,
    onEvent: @escaping @Sendable (Transfer.Event) -> Void
  ) async throws -> String? {
    guard let pieces = transfer.configuration.pieces, pieces.size == total else { return nil }
    for _ in 0..<Self.mendingRounds {
      let whole = SHA256()
      let bad = try transfer.fileStep { () throws(TransferFileError) in
        try pieces.badPieces(in: fd, alsoFeeding: whole)
      }
      if bad.isEmpty { return whole.finalizeHex() }
      let ranges = bad.map { index in
        let bytes = pieces.range(ofPiece: index)
        return TransferRange(start: bytes.lowerBound, end: bytes.upperBound, next: bytes.lowerBound)
      }
      for range in ranges {
        digests.forget(range.start..<range.end)
        for (url, reason) in sources.didServeBadPiece(range.start..<range.end) {
          onEvent(.sourceDropped(url, reason: reason))
        }
      }
      try transfer.indexStep { () throws(StoreError) in
        try journal.saveRanges(ranges, forDestination: destination)
      }
      onEvent(.refetchingPieces(bad))
      let board = board(ranges, map: RangeProgressMap(path: mapPath))
      try await fetchAll(
        board, fd: fd, total: total, validator: validator, sources: sources, onEvent: onEvent)
    }
    let whole = SHA256()
    let bad = try transfer.fileStep { () throws(TransferFileError) in
      try pieces.badPieces(in: fd, alsoFeeding: whole)
    }
    guard let first = bad.first else { return whole.finalizeHex() }
    throw transfer.failure(
      .checksumMismatch(
        expected: pieces.hashes[first], actual: "another SHA-256 for piece \(first)"))
  }
}
