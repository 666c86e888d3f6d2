import Foundation

/// The few file-system steps of the cache that are not a download.
enum CacheFiles {
  /// The size of the regular file at `path`, nil when there is none (a link counts as none).
  static func size(_ path: String) -> Int64? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int64(info.st_size)
  }

  /// The bytes of the regular file at `path` when its length is `size`, else nil (missing,
  /// damaged, replaced). One `open`, one `fstat`, and reads straight into the result.
  static func read(_ path: String, size: Int64) -> Data? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) == size
    else { return nil }
    // Read into uninitialized memory that the Data then owns: no zero-filling first.
    let count = Int(size)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
    var done = 0
    while done < count {
      let got = pread(fd, buffer + done, count - done, off_t(done))
      if got < 0, errno == EINTR { continue }
      guard got > 0 else {
        buffer.deallocate()
        return nil
      }
      done += got
    }
    return Data(
      bytesNoCopy: buffer, count: count,
      deallocator: .custom { pointer, _ in
        pointer.deallocate()
      })
  }

  /// Deletes the regular file at `path`, emptying it first: a descriptor still open on it
  /// (a download's file, released a moment later) must not keep its blocks from the disk.
  static func remove(_ path: String) {
    guard size(path) != nil else { return }
    truncate(path, 0)
    unlink(path)
  }

  /// Moves `source` onto `destination` in one step and syncs the folder.
  static func renameDurably(_ source: String, to destination: String) throws(TransferFileError) {
    guard rename(source, destination) == 0 else {
      throw TransferFileError(.rename, errno: errno, path: destination)
    }
    let folder = (destination as NSString).deletingLastPathComponent
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd >= 0 {
      _ = Durability.sync(fd)
      close(fd)
    }
  }
}
