import Foundation
import OfflineStore

extension OfflineManager {
  /// Puts back in the index every content whose folder manifest (or queue ledger entry) is
  /// there but whose record is not: what opening a store does by itself when it finds the
  /// index damaged, offered for a store whose index was replaced by hand.
  ///
  /// Contents already in the index are left alone. A downloaded content whose files are
  /// missing or of the wrong size is queued to download again; a suspended one comes back
  /// with its parts' journal entries; a queued one comes back queued. Malformed or hostile
  /// manifests are skipped with a reason, and nothing they name is followed outside its
  /// folder. See `docs/Manifest.md`.
  ///
  /// ```swift
  /// let report = try await manager.rebuildFromManifests()
  /// for item in report.skipped { log("\(item.path): \(item.reason)") }
  /// ```
  ///
  /// - Throws: ``OfflineError`` `index` when the index cannot take the records.
  public func rebuildFromManifests() throws(OfflineError) -> RebuildReport {
    let report = try IndexRebuild(files: files).run()
    for item in report.restored {
      machine.didSee(item.state, of: item.id)
      announce(id: item.id)
    }
    pump()
    return report
  }
}
