import Foundation
import HexDigits

/// An incremental SHA-256 on the platform's digest (`SHA256Engine`: libcrypto's EVP on
/// Linux, CryptoKit on Apple platforms).
///
/// Not thread-safe: one owner feeds it in order.
final class SHA256 {
  private var engine = SHA256Engine()

  func update(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    engine.update(bytes)
  }

  /// A hasher fed the same bytes as this one so far, which goes on apart: the digest of a
  /// prefix without hashing it twice.
  func copy() -> SHA256 {
    let other = SHA256()
    other.engine = engine.copy()
    return other
  }

  /// Starts over, forgetting every byte fed so far.
  func reset() {
    engine = SHA256Engine()
  }

  /// The digest of every byte fed so far, as lowercase hex. Feeding may not continue after.
  ///
  /// Spelled out digit by digit (`ASCIIHex`): `String(format: "%02x")` per byte cost 6 % of
  /// the CPU of a 1000-segment stream (one digest per piece) in a profile.
  func finalizeHex() -> String {
    ASCIIHex.digits(engine.finalize())
  }

  /// The SHA-256 of the first `length` bytes of an open file, read in large blocks.
  static func hex(ofFile descriptor: Int32, length: Int64) throws(TransferFileError) -> String {
    let hasher = SHA256()
    try hasher.feed(fromFile: descriptor, length: length)
    return hasher.finalizeHex()
  }

  /// Feeds the first `length` bytes of an open file.
  func feed(fromFile descriptor: Int32, length: Int64) throws(TransferFileError) {
    try feed(fromFile: descriptor, range: 0..<length)
  }

  /// Feeds the bytes of `range` of an open file, read in large blocks.
  /// `other`, when given, is fed the same bytes.
  func feed(fromFile descriptor: Int32, range: Range<Int64>, alongside other: SHA256? = nil)
    throws(TransferFileError)
  {
    let blockSize = 1 << 20
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
    defer { buffer.deallocate() }
    var position = range.lowerBound
    while position < range.upperBound {
      let want = Int(min(Int64(blockSize), range.upperBound - position))
      let got = pread(descriptor, buffer.baseAddress, want, off_t(position))
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { throw TransferFileError(.read, errno: got < 0 ? errno : EIO) }
      update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
      other?.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
      position += Int64(got)
    }
  }

  /// Whether `text` is 64 hex digits (any case).
  static func isValidHex(_ text: String) -> Bool {
    ASCIIHex.isDigits(text, count: 64)
  }

  /// `text` in lowercase when it is a SHA-256 in hex; nil for nil.
  ///
  /// - Throws: ``OfflineError`` (`invalidChecksum`) for anything but 64 hex digits.
  static func checkedHex(_ text: String?) throws(OfflineError) -> String? {
    guard let text else { return nil }
    guard isValidHex(text) else { throw OfflineError(.invalidChecksum(text)) }
    return text.lowercased()
  }
}
