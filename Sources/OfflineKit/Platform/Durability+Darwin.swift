// Written for Apple platforms, not compiled in our CI.
#if canImport(Darwin)
  import Darwin

  extension Durability {
    /// Flushes the file open at `descriptor` to the device: `F_FULLFSYNC` (plain `fsync`
    /// leaves it in the drive's cache), `fsync` where the file system refuses that.
    /// Returns 0, or -1 with `errno` set.
    static func sync(_ descriptor: Int32) -> Int32 {
      countFlush(descriptor)
      return fcntl(descriptor, F_FULLFSYNC) == 0 ? 0 : fsync(descriptor)
    }

    /// Darwin has no `fdatasync` worth the name: the same as ``sync(_:)``.
    static func syncData(_ descriptor: Int32) -> Int32 {
      sync(descriptor)
    }

    /// Darwin has no `syncfs`: `sync()` schedules every dirty file, then `F_FULLFSYNC` on
    /// `descriptor` flushes the drive's cache. Returns 0, or -1 with `errno` set.
    static func syncFileSystem(holding descriptor: Int32) -> Int32 {
      Darwin.sync()
      return sync(descriptor)
    }

    /// The path of what is open at `descriptor` (`F_GETPATH`), nil when unreadable.
    static func path(of descriptor: Int32) -> String? {
      var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
      guard fcntl(descriptor, F_GETPATH, &buffer) == 0 else { return nil }
      return String(cString: buffer)
    }
  }
#endif
