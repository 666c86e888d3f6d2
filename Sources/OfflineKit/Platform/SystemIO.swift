#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `read(2)` and `write(2)` by a name no type of ours shadows, on Linux and Apple platforms
/// alike (callers inside types with their own `write` spelled `Glibc.write` before).
enum SystemIO {
  /// Writes up to `count` bytes; the count written, or -1 with `errno` set.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }

  /// Reads up to `count` bytes; the count read, or -1 with `errno` set.
  static func read(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, bytes, count)
    #else
      Darwin.read(descriptor, bytes, count)
    #endif
  }
}
