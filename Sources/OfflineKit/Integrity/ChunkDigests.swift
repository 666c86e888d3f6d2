import Foundation
import OfflineLocks

/// The SHA-256 of each fixed-size chunk of one file, by chunk number, as the chunks are
/// completed; shared by every writer of the file (the ranges of a segmented download).
///
/// Chunk boundaries are absolute offsets (`n * chunkSize`), so however the file was fetched
/// (one connection, several ranges, resumed) the finished list is the same.
final class ChunkDigests: Sendable {
  /// The chunk size of every list recorded: 4 MiB.
  static let chunkSize: Int64 = 4 << 20

  private let found = Locked<[Int: String]>([:])

  /// The number of chunks of a file of `length` bytes.
  static func count(forLength length: Int64) -> Int {
    Int((length + chunkSize - 1) / chunkSize)
  }

  /// The bytes of chunk `index` in a file of `length` bytes.
  static func range(of index: Int, length: Int64) -> Range<Int64> {
    let start = Int64(index) * chunkSize
    return start..<min(length, start + chunkSize)
  }

  /// Records the digest of chunk `index`.
  func record(_ index: Int, sha256: String) {
    found.withLock { $0[index] = sha256 }
  }

  /// Forgets the digests of the chunks that hold any byte of `bytes` (bytes fetched again:
  /// the finish hashes those chunks from the file).
  func forget(_ bytes: Range<Int64>) {
    guard !bytes.isEmpty else { return }
    let first = Int(bytes.lowerBound / Self.chunkSize)
    let last = Int((bytes.upperBound - 1) / Self.chunkSize)
    found.withLock { found in
      for index in first...last { found[index] = nil }
    }
  }

  /// Forgets every digest (the file starts over).
  func reset() {
    found.withLock { $0.removeAll() }
  }

  /// The digests of a file of `length` bytes in order, hashing from the open file (one read
  /// of those chunks only) every chunk no writer completed while streaming: one that spans a
  /// resume or two ranges.
  ///
  /// With `whole`, the file is read once from its start instead, feeding `whole` every byte
  /// (a caller that hashes the whole file from disk anyway) and the missing chunks theirs.
  func complete(fromFile descriptor: Int32, length: Int64, alsoFeeding whole: SHA256? = nil)
    throws(TransferFileError) -> [String]
  {
    let known = found.withLock { $0 }
    var list: [String] = []
    list.reserveCapacity(Self.count(forLength: length))
    for index in 0..<Self.count(forLength: length) {
      if let digest = known[index], whole == nil {
        list.append(digest)
        continue
      }
      let range = Self.range(of: index, length: length)
      let missing = known[index] == nil
      let hasher = SHA256()
      if let whole {
        try whole.feed(fromFile: descriptor, range: range, alongside: missing ? hasher : nil)
      } else {
        try hasher.feed(fromFile: descriptor, range: range)
      }
      list.append(missing ? hasher.finalizeHex() : known[index]!)
    }
    return list
  }
}
