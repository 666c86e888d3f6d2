import Foundation
import Synchronization

/// Counts the flushes (``Durability``) of what lies under one folder, such as a store, for
/// as long as it lives: what durability costs one manager, whatever other managers of the
/// process flush meanwhile (tests run side by side in one process). Costs nothing while none
/// lives; while one does, each flush reads the path of what it flushes.
final class FolderFlushes: Sendable {
  /// One folder's count, shared with the registry.
  private final class Tally: Sendable {
    let folder: String
    let flushes = Atomic<Int>(0)
    init(folder: String) { self.folder = folder }
  }

  private static let watched = Mutex<[ObjectIdentifier: Tally]>([:])
  private static let watchedCount = Atomic<Int>(0)

  private let tally: Tally

  /// Starts counting the flushes of `folder` and of everything under it.
  init(under folder: URL) {
    // The kernel names open files by their real path: links resolved.
    tally = Tally(folder: folder.resolvingSymlinksInPath().standardizedFileURL.path)
    Self.watched.withLock { $0[ObjectIdentifier(tally)] = tally }
    Self.watchedCount.add(1, ordering: .relaxed)
  }

  deinit {
    Self.watched.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(tally)) }
    Self.watchedCount.subtract(1, ordering: .relaxed)
  }

  /// How many flushes of the folder's files, or of the file system that holds them, came
  /// so far.
  var count: Int { tally.flushes.load(ordering: .relaxed) }

  /// Whether any folder is watched (else a flush need not read its path).
  static var anyWatched: Bool { watchedCount.load(ordering: .relaxed) > 0 }

  /// Counts one flush of `path` for every watched folder that holds it.
  static func count(path: String?) {
    guard let path else { return }
    let tallies = watched.withLock { Array($0.values) }
    for tally in tallies where path == tally.folder || path.hasPrefix(tally.folder + "/") {
      tally.flushes.add(1, ordering: .relaxed)
    }
  }
}
