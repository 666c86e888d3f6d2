import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Damage done in place to a downloaded file, as a bad card or another program would do it.
public enum FileDamage {
  /// Replaces the byte at `offset` of the file at `path` by its complement (xor 0xFF).
  ///
  /// - Throws: ``TestSupportError/systemCall(_:errno:)`` when the file cannot be opened,
  ///   read or written at `offset`.
  public static func flipByte(at offset: Int64, of path: String) throws {
    let fd = open(path, O_RDWR)
    guard fd >= 0 else { throw TestSupportError.systemCall("open \(path)", errno: errno) }
    defer { close(fd) }
    var byte: UInt8 = 0
    guard pread(fd, &byte, 1, off_t(offset)) == 1 else {
      throw TestSupportError.systemCall("pread \(path) at \(offset)", errno: errno)
    }
    byte ^= 0xFF
    guard pwrite(fd, &byte, 1, off_t(offset)) == 1 else {
      throw TestSupportError.systemCall("pwrite \(path) at \(offset)", errno: errno)
    }
  }
}
