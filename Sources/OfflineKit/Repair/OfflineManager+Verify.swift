import Foundation
import OfflineStore

extension OfflineManager {
  /// The quick check of downloaded `record` (see ``ContentQuickCheck``), with its `pieces`
  /// (nil: read from the index).
  nonisolated func quickCheck(_ record: ContentRecord, pieces: [PieceRecord]?) -> ContentDamage? {
    let recorded = pieces ?? ((try? index.pieces.pieces(ofContent: record.id)) ?? [])
    return ContentQuickCheck.damage(of: recorded, in: files.folder(of: record))
  }

  /// Tells the content's subscribers of `damage` (a `changed` event whose snapshot has it)
  /// and returns the error that names it, with the code `damaged`.
  func reportDamage(_ damage: ContentDamage, id: String) -> OfflineError {
    if let record = (try? index.contents.record(id: id)) ?? nil {
      var found = snapshot(of: record, pieces: [])
      found.damage = damage
      tell(.changed(found), to: id)
    }
    return OfflineError(.damaged(damage), contentID: id)
  }

  /// Reads every file of downloaded content `id` again; see ``OfflineContent/verify(progress:)``.
  package func verify(
    id: String, progress: (@Sendable (_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)? = nil
  ) async throws(OfflineError) -> VerifyReport {
    let (pieces, result) = try await readAgain(try downloadedRecord(id: id), progress: progress)
    if let damage = result.damage { _ = reportDamage(damage, id: id) }
    return VerifyReport(
      contentID: id, damage: result.damage, filesChecked: pieces.count,
      bytesRead: result.bytesRead)
  }

  /// Reads every file of downloaded `record` again against its recorded pieces, which it
  /// returns with what the read found; whole files that moved (copied back, touched) get
  /// their new identity recorded, so the quick check stops calling them changed.
  ///
  /// - Throws: ``OfflineError``: `nothingRecorded` when no piece is recorded, `index`, or
  ///   `closed` when the read was cancelled.
  func readAgain(
    _ record: ContentRecord,
    progress: (@Sendable (_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)?
  ) async throws(OfflineError) -> ([PieceRecord], ContentVerifier.Result) {
    let id = record.id
    let pieces = try indexStep { try index.pieces.pieces(ofContent: id) }
    guard !pieces.isEmpty else { throw OfflineError(.nothingRecorded, contentID: id) }
    let verifier = ContentVerifier(
      folder: files.folder(of: record), pieces: pieces, packs: files.packedPieces(of: record))
    guard let result = await verifier.runCancellably(progress: progress) else {
      throw OfflineError(.closed, contentID: id)
    }
    _ = logging("recording the identities of whole files", id: id) {
      try index.pieces.save(result.reidentified)
    }
    return (pieces, result)
  }

  /// The record of `id`, which must be downloaded.
  func downloadedRecord(id: String) throws(OfflineError) -> ContentRecord {
    guard let record = try indexStep({ try index.contents.record(id: id) }) else {
      throw OfflineError(.unknownContent(id), contentID: id)
    }
    guard record.state == .downloaded else {
      throw OfflineError(.notVerifiable(record.offlineState), contentID: id)
    }
    return record
  }
}
