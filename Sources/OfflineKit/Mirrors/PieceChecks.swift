import Foundation
import HexDigits
import Metalink

/// The SHA-256 of each piece of a file (a Metalink's `pieces`), to check the bytes of each
/// as they are on disk: a bad piece is fetched again alone.
package struct PieceChecks: Sendable, Equatable {
  /// The length of every piece but the last.
  package var length: Int64
  /// The file's length.
  package var size: Int64
  /// Each piece's SHA-256, lowercase hex, in file order.
  package var hashes: [String]

  /// Checks of `pieces` (SHA-256 ones) for a file of `size` bytes; nil when they are not
  /// SHA-256 or do not cover the file exactly.
  package init?(_ pieces: PieceHashes, size: Int64) {
    guard pieces.algorithm == .sha256, let length = Int64(exactly: pieces.length), length > 0,
      Int64(pieces.count) == (size + length - 1) / length
    else { return nil }
    self.length = length
    self.size = size
    self.hashes = pieces.hashes.map { ASCIIHex.digits($0) }
  }

  /// Checks with these values.
  package init(length: Int64, size: Int64, hashes: [String]) {
    self.length = length
    self.size = size
    self.hashes = hashes
  }

  /// The bytes piece `index` covers.
  func range(ofPiece index: Int) -> Range<Int64> {
    let start = Int64(index) * length
    return start..<min(size, start + length)
  }

  /// Whether the bytes of piece `index` in the file open at `descriptor` have its SHA-256.
  ///
  /// - Throws: ``TransferFileError`` when the file cannot be read.
  func isRight(piece index: Int, in descriptor: Int32) throws(TransferFileError) -> Bool {
    let hash = SHA256()
    try hash.feed(fromFile: descriptor, range: range(ofPiece: index))
    return hash.finalizeHex() == hashes[index]
  }
}
