#if os(Linux)
  import CSystem
  import Glibc

  extension Durability {
    /// Flushes the file (or folder) open at `descriptor`, metadata included (`fsync`).
    /// Returns 0, or -1 with `errno` set.
    static func sync(_ descriptor: Int32) -> Int32 {
      countFlush(descriptor)
      return fsync(descriptor)
    }

    /// Flushes the file's data and the metadata needed to read it (`fdatasync`).
    /// Returns 0, or -1 with `errno` set.
    static func syncData(_ descriptor: Int32) -> Int32 {
      countFlush(descriptor)
      return fdatasync(descriptor)
    }

    /// Flushes every file written on the file system that holds `descriptor` (`syncfs`).
    /// Returns 0, or -1 with `errno` set.
    static func syncFileSystem(holding descriptor: Int32) -> Int32 {
      countFlush(descriptor)
      return ok_syncfs(descriptor)
    }

    /// The path of what is open at `descriptor` (`/proc/self/fd`), nil when unreadable.
    static func path(of descriptor: Int32) -> String? {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }
#endif
