import Foundation
import OfflineStore

extension SegmentedTransfer {
  /// Records the ranges, and the pieces `ledger` verified since the last checkpoint, once
  /// the part is fsynced. The pieces are taken before the ranges: every byte of a piece
  /// taken was written before its check, so the ranges saved cover it.
  func checkpoint(_ board: RangeBoard, fd: Int32, ledger: PieceLedger?) {
    let pieces = ledger?.takePending() ?? []
    let ranges = board.snapshot()
    do {
      guard Durability.syncData(fd) == 0 else { throw CancellationError() }
      try journal.saveRanges(ranges, addingVerifiedPieces: pieces, forDestination: destination)
    } catch {
      ledger?.restorePending(pieces)
    }
  }

  /// Syncs, checks the length and the checksum over the whole file (against
  /// `expectedSHA256`: the one given, else the first response's digest), then renames into
  /// place. A file whose SHA-256 differs is removed, never passed off as complete.
  func finish(
    fd: Int32, total: Int64, expectedSHA256: String?,
    onEvent: @Sendable (Transfer.Event) -> Void
  ) throws(Transfer.Error) -> Transfer.Outcome {
    onEvent(.verifying)
    guard Durability.syncData(fd) == 0 else {
      throw transfer.failure(.file(TransferFileError(.sync, errno: errno, path: transfer.partPath)))
    }
    var sha: String?
    var chunks: [String]?
    if expectedSHA256 != nil || transfer.configuration.computesSHA256 {
      // One read of the file for its SHA-256; chunks no range completed whole (one that
      // spans two ranges, or ranges fetched before a resume) are hashed in the same read.
      let whole = SHA256()
      if hashesChunks {
        chunks = try transfer.fileStep { () throws(TransferFileError) in
          try digests.complete(fromFile: fd, length: total, alsoFeeding: whole)
        }
      } else {
        try transfer.fileStep { () throws(TransferFileError) in
          try whole.feed(fromFile: fd, length: total)
        }
      }
      sha = whole.finalizeHex()
    }
    if let expected = expectedSHA256, let sha, sha != expected {
      unlink(transfer.partPath)
      unlink(mapPath)
      try transfer.indexStep { () throws(StoreError) in try journal.remove(destination: destination)
      }
      throw transfer.failure(.checksumMismatch(expected: expected, actual: sha))
    }
    var record =
      (try? journal.record(forDestination: destination))?.flatMap { $0 }
      ?? TransferRecord(destination: destination, url: transfer.url.absoluteString)
    record.phase = .finishing
    record.totalLength = total
    record.durableOffset = total
    record.sha256 = sha
    let finishing = record
    try transfer.indexStep { () throws(StoreError) in
      try journal.save(finishing)
      try journal.saveRanges([], forDestination: destination)
      try journal.removeVerifiedPieces(forDestination: destination)
    }
    try transfer.checkDestinationKind()
    try transfer.fileStep { () throws(TransferFileError) in
      try FileSteps.renameIntoPlace(transfer.partPath, to: destination, durably: true)
    }
    unlink(mapPath)
    try transfer.recordComplete(&record)
    var outcome = Transfer.Outcome(
      destination: destination, length: total, sha256: sha, wasAlreadyComplete: false,
      bytesReceived: total, check: sha == nil ? .length : .sha256)
    outcome.chunkSHA256 = chunks
    return outcome
  }
}
