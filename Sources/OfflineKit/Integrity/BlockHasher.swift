import Foundation

/// Hashes the fixed-size blocks of a file (each starting at a multiple of ``blockSize``)
/// from bytes written in order at known offsets, as they stream: a block whose every byte
/// this hasher saw, from its first, is told to ``found`` the moment its last byte arrives.
/// The chunk digests (``ChunkHasher``) and a Metalink's pieces (``PieceChecks``) are both
/// such blocks.
///
/// A write that does not continue the last one (a resume, another range) drops the block in
/// progress: whoever reads the digests hashes such blocks from the file.
/// Not thread-safe: one owner feeds it in order (a transfer's sink, one range's sink).
final class BlockHasher {
  /// The length of every block but a file's last.
  let blockSize: Int64
  /// The length of the file once known: a shorter last block completes at it.
  private let length: Int64?
  private let found: (_ index: Int, _ sha256: String) -> Void
  private var current: SHA256?
  private var currentIndex = -1
  /// The offset the next byte must have to continue the block in progress.
  private var position: Int64 = -1

  /// A hasher of blocks of `blockSize` bytes telling each completed one to `found`, on the
  /// thread that fed its last byte; `length` makes the last, shorter block complete as it
  /// streams (without it, the last block waits for ``finish(atLength:)``).
  init(
    blockSize: Int64, length: Int64? = nil,
    found: @escaping (_ index: Int, _ sha256: String) -> Void
  ) {
    precondition(blockSize > 0, "blocks have bytes")
    self.blockSize = blockSize
    self.length = length
    self.found = found
  }

  /// Feeds `bytes`, which were written at `offset`.
  func update(_ bytes: UnsafeRawBufferPointer, at offset: Int64) {
    guard !bytes.isEmpty else { return }
    if offset != position {
      current = nil
      currentIndex = -1
    }
    var done = 0
    var at = offset
    while done < bytes.count {
      let index = Int(at / blockSize)
      let blockEnd = min(Int64(index + 1) * blockSize, length ?? .max)
      let take = Int(min(Int64(bytes.count - done), blockEnd - at))
      if current == nil, at == Int64(index) * blockSize {
        current = SHA256()
        currentIndex = index
      }
      if let hasher = current, currentIndex == index {
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[done..<(done + take)]))
        if at + Int64(take) == blockEnd {
          found(index, hasher.finalizeHex())
          current = nil
          currentIndex = -1
        }
      }
      done += take
      at += Int64(take)
    }
    position = at
  }

  /// Completes the block in progress when the file ends at `length` (its last block).
  func finish(atLength length: Int64) {
    guard let hasher = current, position == length, Int64(currentIndex) * blockSize < length
    else { return }
    found(currentIndex, hasher.finalizeHex())
    current = nil
    currentIndex = -1
  }

  /// Drops the block in progress; the next byte fed starts afresh.
  func reset() {
    current = nil
    currentIndex = -1
    position = -1
  }
}
