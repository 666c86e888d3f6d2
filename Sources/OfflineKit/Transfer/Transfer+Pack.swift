import Foundation
import OfflineStore

extension Transfer {
  /// Finishes a piece whose whole body is still in the part's buffer by writing it into
  /// `pack` (``PiecePack``) instead of a file of its own: its length is checked, its bytes
  /// are written and hashed, and then its record, `complete` with where the bytes are,
  /// goes to the journal (through ``responses`` when there is a batch, in the same group
  /// commit the pieces renamed into files use). A crash before the record leaves the
  /// region unclaimed and the piece to be fetched again; nothing half-written is ever
  /// claimed.
  func finish(_ sink: TransferSink, into pack: PiecePack) async throws(Transfer.Error) -> Outcome {
    let length = sink.part.length
    try checkLength(sink, length)
    // Bytes that are not the ones expected (a repair's) are never written, not even into a
    // region no record claims.
    if let expected = configuration.expectedSHA256 {
      let actual = sink.part.bufferedSHA256()
      guard actual == expected else {
        try indexStep { () throws(StoreError) in try journal.remove(destination: destination) }
        throw failure(.checksumMismatch(expected: expected, actual: actual))
      }
    }
    let offset = try fileStep { () throws(TransferFileError) in
      try sink.part.moveBuffered(into: pack)
    }
    let (sha, _) = try fileStep { () throws(TransferFileError) in
      try sink.finishHashes(length: length)
    }
    if let expected = configuration.expectedSHA256, let sha, sha != expected {
      // The region stays unclaimed, as after a crash.
      try indexStep { () throws(StoreError) in try journal.remove(destination: destination) }
      throw failure(.checksumMismatch(expected: expected, actual: sha))
    }
    CrashPoint.reach(.transferAfterPackWrite)
    var record = sink.record
    record.phase = .complete
    record.totalLength = length
    record.durableOffset = length
    record.sha256 = sha
    record.bootID = BootIdentity.current
    record.fileIdentity = nil
    record.pack = TransferRecord.Pack(path: pack.path, offset: offset)
    try await writeBeforeGoingOn(record, sink: sink)
    var outcome = Outcome(
      destination: destination, length: length, sha256: sha, wasAlreadyComplete: false,
      bytesReceived: sink.bytesReceived, check: sha == nil ? .length : .sha256)
    outcome.pack = record.pack
    return outcome
  }
}
