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

  /// Changes the byte at `offset` of the file at `path` while keeping its length and its
  /// modification time (as `touch -r` would put it back): a server such as nginx then gives
  /// the new bytes the same `ETag` and `Last-Modified` as the old ones, as a CDN that serves
  /// another version under the same validators does.
  ///
  /// - Throws: ``TestSupportError/systemCall(_:errno:)`` when the file cannot be changed,
  ///   or its modification time cannot be read; the file manager's error when it cannot be
  ///   set.
  public static func flipByteKeepingValidators(at offset: Int64, of path: String) throws {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    guard let modified = attributes[.modificationDate] as? Date else {
      throw TestSupportError.systemCall("stat \(path)", errno: EINVAL)
    }
    try flipByte(at: offset, of: path)
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
  }
}
