import Foundation
import OfflineStore

extension OfflineManager {
  /// ``QueueMachine/Surroundings`` for one turn of the runner (``pump()``): the space of a
  /// folder is read once for all of the turn's launches into it (the shared folder of flat
  /// files, most often), with the store's usage; the next turn reads them afresh.
  func surroundingsForTurn() -> QueueMachine.Surroundings {
    let spaces = TurnSpaces()
    return QueueMachine.Surroundings(
      isReachable: isReachable,
      space: { [self] record in
        let folder = record.flatFile ? "" : record.id  // "" names the shared folder
        if let known = spaces.answers[folder] { return known }
        let answer = space(for: record)
        spaces.answers[folder] = answer
        return answer
      }, margin: configuration.minimumFreeSpace)
  }

  /// The space of the file system that holds the folder of `record` (made here, as its
  /// download would), and the store's quota with its usage when it has one: what
  /// ``SpaceDecision`` weighs.
  ///
  /// The shared folder of flat files is made only when it is missing: its space is read
  /// first, where a `mkdir` that found it there was a system call per launch for nothing.
  nonisolated func space(for record: ContentRecord) -> (StorageSpace?, SpaceDecision.Quota?) {
    let quota = configuration.storeQuota.flatMap { limit in
      (try? index.cache.storeUsage()).map { SpaceDecision.Quota(limit: limit, used: $0.totalBytes) }
    }
    if record.flatFile, let space = StorageSpace(at: files.flatFolderPath) {
      return (space, quota)
    }
    return (StorageSpace(at: files.makeFolder(for: record).path), quota)
  }
}

/// What one turn of the runner read of the file systems, by folder (the content's id, or ""
/// for the shared folder of flat files). Used on the manager's actor only, within a turn.
private final class TurnSpaces {
  var answers: [String: (StorageSpace?, SpaceDecision.Quota?)] = [:]
}
