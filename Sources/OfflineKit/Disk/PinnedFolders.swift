import Foundation
import OfflineLocks

/// A folder held open by its descriptor, closed when the last holder lets it go.
final class PinnedFolder: Sendable {
  /// The open folder (`O_RDONLY | O_DIRECTORY`).
  let descriptor: Int32

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }
}

/// The folders of the contents being written, held open by their path while a run goes
/// (``ContentFolders/pin(forFiles:in:)``): a file whose folder is pinned is opened, renamed,
/// removed and looked at relative to the folder's descriptor (``FileSteps/open(_:flags:mode:)``
/// and its siblings), never through its path. A symbolic link swapped in for a folder while
/// the run goes is never followed: the run's files go on into the folder it opened, and
/// ``ContentFolders/Pins/checkInPlace()`` fails the run naming the link.
///
/// A file whose folder is not pinned goes by its path as before. A look-up is one lock and
/// one dictionary look-up; the descriptors were opened once for the run.
enum PinnedFolders {
  private struct Entry {
    let folder: PinnedFolder
    var holders: Int
  }

  private static let table = Locked<[String: Entry]>([:])

  /// Pins `folder` at `path` (no trailing `/`) and returns the folder pinned there: the
  /// one pinned first when another run pinned the same path already.
  static func pin(_ folder: PinnedFolder, at path: String) -> PinnedFolder {
    table.withLock { table in
      if var entry = table[path] {
        entry.holders += 1
        table[path] = entry
        return entry.folder
      }
      table[path] = Entry(folder: folder, holders: 1)
      return folder
    }
  }

  /// Lets go of one pin of `path`; the last one drops it.
  static func unpin(_ path: String) {
    table.withLock { table in
      guard var entry = table[path] else { return }
      entry.holders -= 1
      table[path] = entry.holders > 0 ? entry : nil
    }
  }

  /// The pinned folder that holds the file at `path` and the file's name in it; nil when
  /// its folder is not pinned. Keep the folder alive while its descriptor is used.
  static func parent(of path: String) -> (folder: PinnedFolder, name: String)? {
    guard let slash = path.lastIndex(of: "/") else { return nil }
    // No key is made while nothing is pinned (a queue of single files).
    let found = table.withLock { table -> PinnedFolder? in
      table.isEmpty ? nil : table[String(path[..<slash])]?.folder
    }
    guard let folder = found else { return nil }
    return (folder, String(path[path.index(after: slash)...]))
  }

  /// The pinned folder at `path` itself; nil when it is not pinned.
  static func folder(at path: String) -> PinnedFolder? {
    table.withLock { $0.isEmpty ? nil : $0[path]?.folder }
  }
}
