import Foundation
import OfflineStore

/// Brings a store back to states that can go on, after a crash at any moment.
///
/// - `canceling`: the partial data is deleted and the content becomes `notDownloaded`.
/// - a cleanup intent (recorded with a delete or a cancel): the files are deleted, then the
///   intent cleared.
/// - `downloading`: left as it is; it continues when the queue runs.
///
/// Only the holder of the runner lock runs it, so no download is writing meanwhile.
struct Recovery {
  let index: OfflineIndex
  let directory: URL

  func run() throws(OfflineError) {
    let records = try indexStep {
      try index.contents.needingRecovery(state: .canceling)
    }
    for record in records {
      try ContentFiles(index: index, directory: directory).delete(record)
      CrashPoint.reach(.recoveryAfterDeletingFiles)
      try indexStep {
        try index.contents.update(id: record.id) { CleanupDecision.recovered.apply(to: &$0) }
      }
    }
  }
}
