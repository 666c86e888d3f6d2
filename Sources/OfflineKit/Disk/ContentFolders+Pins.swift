import Foundation
import OfflineLocks

extension ContentFolders {
  /// The folders of a content pinned for a run (``ContentFolders/pin(forFiles:in:)``): the
  /// content's folder and the folders inside it, each held open and registered with
  /// ``PinnedFolders`` until this goes.
  final class Pins: Sendable {
    /// One pinned folder inside the content's folder.
    private struct Inside {
      let path: String
      let name: String
      let parent: PinnedFolder
      let folder: PinnedFolder
    }

    let root: String
    /// The content's folder, opened as it is named (a link the user chose is followed).
    let rootFolder: PinnedFolder
    private let inside = Locked<[Inside]>([])

    init(root: String, folder: PinnedFolder) {
      self.root = root
      self.rootFolder = PinnedFolders.pin(folder, at: root)
    }

    /// Pins `folder`, named `name` inside `parent`, at `path`; returns the folder pinned
    /// there (another run's, when it pinned the same path first).
    func add(_ folder: PinnedFolder, at path: String, named name: String, in parent: PinnedFolder)
      -> PinnedFolder
    {
      let pinned = PinnedFolders.pin(folder, at: path)
      inside.withLock { $0.append(Inside(path: path, name: name, parent: parent, folder: pinned)) }
      return pinned
    }

    deinit {
      for folder in inside.withLock({ $0 }) { PinnedFolders.unpin(folder.path) }
      PinnedFolders.unpin(root)
    }

    /// Checks that every pinned folder is still where the run opened it: the content's
    /// folder at its path, each folder inside it under its name in its parent, a folder and
    /// not a link. The run's files went into the folders it opened whatever happened to
    /// their names; a content whose folders were moved or replaced meanwhile is not where
    /// it should be, and fails.
    ///
    /// - Throws: ``TransferFileError`` (`createDirectory`) naming the first folder out of
    ///   place: `ELOOP` for a symbolic link now at its name, `ENOENT` for none, `ESTALE`
    ///   for another folder.
    func checkInPlace() throws(TransferFileError) {
      var opened = stat()
      var named = stat()
      guard fstat(rootFolder.descriptor, &opened) == 0, stat(root, &named) == 0 else {
        throw TransferFileError(.createDirectory, errno: errno, path: root)
      }
      guard Self.isSame(opened, named) else {
        var link = stat()
        let isLink = lstat(root, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
        throw TransferFileError(.createDirectory, errno: isLink ? ELOOP : ESTALE, path: root)
      }
      for folder in inside.withLock({ $0 }).sorted(by: { $0.path < $1.path }) {
        guard fstat(folder.folder.descriptor, &opened) == 0,
          fstatat(folder.parent.descriptor, folder.name, &named, AT_SYMLINK_NOFOLLOW) == 0
        else {
          throw TransferFileError(.createDirectory, errno: errno, path: folder.path)
        }
        if (named.st_mode & S_IFMT) == S_IFLNK {
          throw TransferFileError(.createDirectory, errno: ELOOP, path: folder.path)
        }
        guard Self.isSame(opened, named) else {
          throw TransferFileError(.createDirectory, errno: ESTALE, path: folder.path)
        }
      }
    }

    private static func isSame(_ one: stat, _ other: stat) -> Bool {
      one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }
  }
}
