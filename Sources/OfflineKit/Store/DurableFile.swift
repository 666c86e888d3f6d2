import Foundation

/// Small files written whole or not at all, and durably: a temporary file beside the target,
/// fsync, rename, fsync of the folder. Reads refuse links and anything but a regular file.
///
/// Used for content manifests; their writes are best effort (a failed write leaves the old
/// manifest or none, and the index stays the truth), so errors are plain `errno` values.
enum DurableFile {
  /// Writes `data` to `target` (mode 0600), replacing it atomically. Without
  /// `syncingFolder` the caller fsyncs the folder itself (once for many files); without
  /// `durably` nothing is fsynced: the caller syncs the whole file system afterwards
  /// (`syncfs`, once for many files).
  ///
  /// - Returns: 0, or the `errno` of the step that failed (the target is then unchanged).
  @discardableResult
  static func write(
    _ data: Data, to target: URL, syncingFolder: Bool = true, durably: Bool = true
  ) -> Int32 {
    let temporary = target.path + ".tmp"
    FileSteps.unlink(temporary)
    let fd = FileSteps.open(
      temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o600)
    guard fd >= 0 else { return errno }
    let written = data.withUnsafeBytes { SystemIO.write(fd, $0.baseAddress, $0.count) }
    let synced = !durably || Durability.sync(fd) == 0
    let code: Int32 = written == data.count ? (synced ? 0 : errno) : ENOSPC
    close(fd)
    guard code == 0 else {
      FileSteps.unlink(temporary)
      return code
    }
    guard FileSteps.rename(temporary, target.path) == 0 else {
      let failed = errno
      FileSteps.unlink(temporary)
      return failed
    }
    return durably && syncingFolder ? syncFolder(of: target) : 0
  }

  /// Removes `target` and makes the removal durable; a missing file is not an error.
  @discardableResult
  static func remove(_ target: URL) -> Int32 {
    if FileSteps.unlink(target.path) != 0 { return errno == ENOENT ? 0 : errno }
    return syncFolder(of: target)
  }

  /// fsyncs the folder that holds `target`, so a rename or unlink in it survives a crash.
  @discardableResult
  static func syncFolder(of target: URL) -> Int32 {
    FileSteps.syncFolder(of: target.path)
  }

  /// The bytes of the regular file at `path`, never following a link; nil with a reason when
  /// it is missing, not a regular file, or larger than `limit`.
  static func read(_ path: String, limit: Int) -> Result<Data, ContentManifest.Problem> {
    let fd = FileSteps.open(path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      let code = errno
      return .failure(
        .init(code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code))))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return .failure(.init("it is not a regular file"))
    }
    guard info.st_size <= limit else { return .failure(.init("it is larger than \(limit) bytes")) }
    var data = Data(count: Int(info.st_size))
    let count = data.withUnsafeMutableBytes { SystemIO.read(fd, $0.baseAddress, $0.count) }
    guard count == Int(info.st_size) else { return .failure(.init("it could not be read")) }
    return .success(data)
  }

  /// What is at `path`, without following a link at the last component.
  enum Kind: Equatable {
    case missing
    case directory
    case regular(size: Int64)
    case other
  }

  /// The kind of `path` (`lstat`).
  static func kind(_ path: String) -> Kind {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .missing }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFREG: return .regular(size: Int64(info.st_size))
    default: return .other
    }
  }

  /// The kind of `relative` inside `folder`, where every folder on the way must be a real
  /// directory (a link anywhere on the path gives ``Kind/other``): nothing is followed out
  /// of the content's folder.
  static func kind(of relative: String, in folder: URL) -> Kind {
    var path = folder.path
    let parts = relative.split(separator: "/").map(String.init)
    for part in parts.dropLast() {
      path += "/" + part
      guard kind(path) == .directory else { return .other }
    }
    return kind(path + "/" + (parts.last ?? ""))
  }
}
