import Foundation

/// Makes written bytes survive a power cut: the one seam for every flush to the device.
///
/// The calls are the platform's (`Durability+Linux.swift`, `Durability+Darwin.swift`): on
/// Linux `fsync(2)` and `syncfs(2)`; on Apple platforms `fsync` does not flush the drive's
/// cache, so `F_FULLFSYNC` is used.
enum Durability {
  /// Counts one flush of the file (or folder, or file system) open at `descriptor` for the
  /// folders being watched (``FolderFlushes``: what durability costs, for tests and
  /// profiles); called by every platform's flush.
  static func countFlush(_ descriptor: Int32) {
    guard FolderFlushes.anyWatched else { return }
    FolderFlushes.count(path: path(of: descriptor))
  }

  /// Flushes every file written on the file system that holds `folder` (a batch's bytes,
  /// renames and manifests; a stream's pieces): nil when they are on the device, else the
  /// `errno` of the failure (the folder could not be opened, or the sync failed).
  static func syncFileSystem(of folder: URL) -> Int32? {
    #if DEBUG
      if let code = SyncFault.code(for: folder) { return code }
    #endif
    let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return errno }
    defer { close(fd) }
    return syncFileSystem(holding: fd) == 0 ? nil : errno
  }
}
