import Foundation

/// Small files written whole or not at all: a temporary file, fsync, rename. In a pinned
/// folder (``PinnedFolders``) each step is made relative to it, never through its path.
enum AtomicFile {
  static func write(
    _ data: Data, to target: URL, mode: mode_t, url: URL, durably: Bool = true
  ) throws(Transfer.Error) {
    let folder = target.deletingLastPathComponent()
    let temporary = folder.appending(path: ".\(target.lastPathComponent).tmp")
    let failure = { (operation: TransferFileError.Operation, code: Int32) in
      Transfer.Error(
        .file(TransferFileError(operation, errno: code, path: target.path)), url: url,
        destination: target.path)
    }
    if !FileSteps.isInPinnedFolder(target.path) {
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        throw failure(.createDirectory, EACCES)
      }
    }
    FileSteps.unlink(temporary.path)
    let fd = FileSteps.open(
      temporary.path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: mode)
    guard fd >= 0 else { throw failure(.open, errno) }
    defer { close(fd) }
    let written = data.withUnsafeBytes { SystemIO.write(fd, $0.baseAddress, $0.count) }
    guard written == data.count else { throw failure(.write, written < 0 ? errno : ENOSPC) }
    fchmod(fd, mode)
    guard !durably || Durability.sync(fd) == 0 else { throw failure(.sync, errno) }
    guard FileSteps.rename(temporary.path, target.path) == 0 else { throw failure(.rename, errno) }
  }
}
