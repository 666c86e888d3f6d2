import Foundation
import OfflineStore

extension OfflineManager {
  /// The content with `id`.
  ///
  /// - Throws: ``OfflineError`` with the code ``OfflineError/Code/unknownContent`` when the
  ///   store has no content `id`; ``OfflineError/Code/index`` when the index cannot be read.
  public func content(id: String) throws(OfflineError) -> OfflineContent {
    guard let record = try indexStep({ try index.contents.record(id: id) }) else {
      throw OfflineError(.unknownContent(id), contentID: id)
    }
    return OfflineContent(id: record.id, manager: self)
  }

  /// Every content in queue order.
  public func snapshots() throws(OfflineError) -> [OfflineContent.Snapshot] {
    let records = try indexStep { try index.contents.all() }
    // One query for every content's records: the quick check costs one lstat per file.
    let pieces = (try? index.pieces.allPieces()) ?? [:]
    return records.map { snapshot(of: asRunHere($0), pieces: pieces[$0.id] ?? []) }
  }

  /// The contents in `states`, in queue order: in the order of ``snapshots()``, read
  /// without the others (after a run of a thousand files, its suspended and failed ones
  /// are read, not the thousand).
  public func snapshots(in states: Set<OfflineState>) throws(OfflineError)
    -> [OfflineContent.Snapshot]
  {
    var records: [ContentRecord] = []
    for state in states {
      records += try indexStep { try index.contents.records(inState: state.stored) }
    }
    records.sort { $0.sequence < $1.sequence }
    let pieces =
      states.contains(.downloaded) ? ((try? index.pieces.allPieces()) ?? [:]) : [:]
    return records.map { snapshot(of: asRunHere($0), pieces: pieces[$0.id] ?? []) }
  }

  /// The content with `id` as the index has it now.
  public func snapshot(id: String) throws(OfflineError) -> OfflineContent.Snapshot {
    guard let record = try indexStep({ try index.contents.record(id: id) }) else {
      throw OfflineError(.unknownContent(id), contentID: id)
    }
    return snapshot(of: asRunHere(record))
  }

  /// `record` with the wait reason of its download when it runs here, which the index may
  /// not hold yet (``RunningDownload/indexedReason``): `starting` until its bytes come, then
  /// none; a file whose bytes are all there and wait in a batch to be recorded has none.
  func asRunHere(_ record: ContentRecord) -> ContentRecord {
    var record = record
    if let download = machine.running[record.id] {
      record.waitReason = download.waitReason(indexed: record.waitReason)
    } else if commits.holds(record.id),
      record.waitReason == .queued || record.waitReason == .starting
    {
      record.waitReason = nil
    }
    return record
  }
}
