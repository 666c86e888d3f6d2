import Foundation

/// Hashes a file on disk: its SHA-256 and its chunk digests (``ChunkDigests``) in one read.
enum PieceHashing {
  /// The SHA-256 and chunk digests of the first `length` bytes of the file at `path`; nil
  /// when it cannot be opened or read.
  static func hash(path: String, length: Int64) -> (sha256: String, chunks: [String])? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    let whole = SHA256()
    guard
      let chunks = try? ChunkDigests().complete(fromFile: fd, length: length, alsoFeeding: whole)
    else { return nil }
    return (whole.finalizeHex(), chunks)
  }
}
