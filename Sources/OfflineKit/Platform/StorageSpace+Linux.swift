#if os(Linux)
  import Glibc

  extension StorageSpace {
    /// The space `statvfs` reports for the file system holding `path`: available is what an
    /// unprivileged writer may still use, capacity leaves out the blocks reserved for root.
    static func read(at path: String) -> StorageSpace? {
      var info = statvfs()
      guard statvfs(path, &info) == 0 else { return nil }
      let block = Int64(info.f_frsize)
      let reserved = Int64(info.f_bfree) - Int64(info.f_bavail)
      return StorageSpace(
        available: Int64(info.f_bavail) * block,
        capacity: (Int64(info.f_blocks) - max(0, reserved)) * block)
    }
  }
#endif
