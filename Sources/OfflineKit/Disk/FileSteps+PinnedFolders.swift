import Foundation

/// The system calls on a file of a content, made relative to its folder's descriptor when
/// the folder is pinned (``PinnedFolders``), so a link swapped in for a folder during a run
/// is never followed; by path otherwise. Each returns what the system call returns, with
/// `errno` set on failure.
extension FileSteps {
  /// `open(path, flags, mode)`, or `openat` in the pinned folder of `path`.
  static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) -> Int32 {
    guard let pinned = PinnedFolders.parent(of: path) else {
      return Foundation.open(path, flags, mode)
    }
    return withExtendedLifetime(pinned.folder) {
      openat(pinned.folder.descriptor, pinned.name, flags, mode)
    }
  }

  /// `rename(source, destination)`, or `renameat` from and to their pinned folders.
  static func rename(_ source: String, _ destination: String) -> Int32 {
    let from = PinnedFolders.parent(of: source)
    let to = PinnedFolders.parent(of: destination)
    return withExtendedLifetime((from?.folder, to?.folder)) {
      renameat(
        from?.folder.descriptor ?? AT_FDCWD, from?.name ?? source,
        to?.folder.descriptor ?? AT_FDCWD, to?.name ?? destination)
    }
  }

  /// `unlink(path)`, or `unlinkat` in the pinned folder of `path`.
  @discardableResult
  static func unlink(_ path: String) -> Int32 {
    guard let pinned = PinnedFolders.parent(of: path) else {
      return Foundation.unlink(path)
    }
    return withExtendedLifetime(pinned.folder) {
      unlinkat(pinned.folder.descriptor, pinned.name, 0)
    }
  }

  /// `lstat(path)`, or `fstatat` without following a link in the pinned folder of `path`.
  static func lstat(_ path: String, _ info: inout stat) -> Int32 {
    guard let pinned = PinnedFolders.parent(of: path) else {
      return Foundation.lstat(path, &info)
    }
    return withExtendedLifetime(pinned.folder) {
      fstatat(pinned.folder.descriptor, pinned.name, &info, AT_SYMLINK_NOFOLLOW)
    }
  }

  /// fsyncs the folder that holds `path`, the pinned one when it is pinned; 0, or the
  /// `errno` of the step that failed.
  @discardableResult
  static func syncFolder(of path: String) -> Int32 {
    if let pinned = PinnedFolders.parent(of: path) {
      return withExtendedLifetime(pinned.folder) {
        Durability.sync(pinned.folder.descriptor) == 0 ? 0 : errno
      }
    }
    let parent = (path as NSString).deletingLastPathComponent
    let fd = Foundation.open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return errno }
    defer { close(fd) }
    return Durability.sync(fd) == 0 ? 0 : errno
  }

  /// Whether the folder that holds `path` is pinned (it exists, and needs no making).
  static func isInPinnedFolder(_ path: String) -> Bool {
    PinnedFolders.parent(of: path) != nil
  }
}
