import Foundation

/// File-system steps around a part file that are not about its bytes.
enum FileSteps {
  /// Writes every byte of `bytes` at `offset` of the open file `descriptor`, going on after
  /// short writes and `EINTR`.
  ///
  /// - Throws: ``TransferFileError`` (`write`) with the `errno` of the failed write; what
  ///   reached the file before it stays there.
  static func writeAll(
    _ bytes: UnsafeRawBufferPointer, at offset: Int64, to descriptor: Int32
  ) throws(TransferFileError) {
    var done = 0
    while done < bytes.count {
      let wrote = pwrite(
        descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
      if wrote < 0, errno == EINTR { continue }
      guard wrote > 0 else { throw TransferFileError(.write, errno: wrote < 0 ? errno : EIO) }
      done += wrote
    }
  }

  /// The size of the regular file at `path`, nil when there is none (a link counts as none).
  static func regularFileSize(_ path: String) -> Int64? {
    var info = stat()
    guard Self.lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int64(info.st_size)
  }

  /// Whether anything at all (file, link, folder) is at `path`.
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return Self.lstat(path, &info) == 0
  }

  /// Moves `source` to `destination` in one step and, when `durably`, syncs the folder so
  /// the move survives a power cut.
  static func renameIntoPlace(_ source: String, to destination: String, durably: Bool)
    throws(TransferFileError)
  {
    guard rename(source, destination) == 0 else {
      throw TransferFileError(.rename, errno: errno, path: destination)
    }
    guard durably else { return }
    syncFolder(of: destination)
  }

  /// Opens `path` with `flags` (mode 0644 when they create it). When the open finds no
  /// folder (or something else where the folder belongs), the folder is made, or refused
  /// as ``createFolder(_:)`` refuses it, and the file opened again: a folder checked before
  /// every open cost each piece of a stream look-ups in a folder that is there for all but
  /// the first.
  ///
  /// - Throws: ``TransferFileError`` (`open`, or `createDirectory`) with the `errno`.
  /// In a pinned folder (``PinnedFolders``) the file is opened relative to it and its
  /// folder is never made: it exists, opened for the run.
  static func openMakingFolder(_ path: String, flags: Int32) throws(TransferFileError) -> Int32 {
    var fd = open(path, flags: flags)
    if fd < 0, errno == ENOENT || errno == ENOTDIR, !isInPinnedFolder(path) {
      try createFolder((path as NSString).deletingLastPathComponent)
      fd = open(path, flags: flags)
    }
    guard fd >= 0 else { throw TransferFileError(.open, errno: errno, path: path) }
    return fd
  }

  /// The `fstat` of `descriptor`, open at `path`, when it is a regular file; otherwise the
  /// descriptor is closed and ``TransferFileError`` (`open`, `EINVAL`) thrown.
  static func regularFile(_ descriptor: Int32, at path: String) throws(TransferFileError) -> stat {
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      throw TransferFileError(.open, errno: EINVAL, path: path)
    }
    return info
  }

  /// Creates `folder` and its parents when missing.
  static func createFolder(_ folder: String) throws(TransferFileError) {
    var info = stat()
    if lstat(folder, &info) == 0, stat(folder, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
      // A file (or a link to one, or a dangling link) where the folder belongs: never
      // replaced. A link to a folder the user chose is a folder.
      throw TransferFileError(.createDirectory, errno: ENOTDIR, path: folder)
    }
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw TransferFileError(.createDirectory, errno: EACCES, path: folder)
    }
  }

  /// The SHA-256 of a whole regular file, as lowercase hex.
  static func sha256(ofFile path: String) throws(TransferFileError) -> String {
    let fd = open(path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw TransferFileError(.read, errno: errno, path: path) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw TransferFileError(.read, errno: errno, path: path) }
    return try SHA256.hex(ofFile: fd, length: Int64(info.st_size))
  }
}
