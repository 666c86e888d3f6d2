#if os(Linux)
  import CSystem
  import Glibc

  extension Durability {
    /// Flushes the file (or folder) open at `descriptor`, metadata included (`fsync`).
    /// Returns 0, or -1 with `errno` set.
    static func sync(_ descriptor: Int32) -> Int32 {
      countFlush()
      return fsync(descriptor)
    }

    /// Flushes the file's data and the metadata needed to read it (`fdatasync`).
    /// Returns 0, or -1 with `errno` set.
    static func syncData(_ descriptor: Int32) -> Int32 {
      countFlush()
      return fdatasync(descriptor)
    }

    /// Flushes every file written on the file system that holds `descriptor` (`syncfs`).
    /// Returns 0, or -1 with `errno` set.
    static func syncFileSystem(holding descriptor: Int32) -> Int32 {
      countFlush()
      return ok_syncfs(descriptor)
    }
  }
#endif
