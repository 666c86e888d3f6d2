import Foundation
import OfflineStore

extension FileIdentity {
  /// The identity of the regular file at `path`, nil when there is none (a link counts as
  /// none: it is not followed).
  init?(regularFileAt path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    self.init(info)
  }

  /// The identity of the regular file open at `descriptor` (no path is looked up), nil when
  /// it is not one or cannot be read.
  init?(openFile descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    self.init(info)
  }

  private init?(_ info: stat) {
    guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    self.init(
      size: Int64(info.st_size),
      modificationNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000
        + Int64(info.st_mtim.tv_nsec),
      inode: Int64(bitPattern: UInt64(info.st_ino)), device: Int64(bitPattern: UInt64(info.st_dev)))
  }
}
