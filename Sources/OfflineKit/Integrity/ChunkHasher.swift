import Foundation

/// Hashes the chunks of a file (``ChunkDigests/chunkSize``) from bytes written in order at
/// known offsets, as they stream: a chunk whose every byte this hasher saw, from its first,
/// is recorded in ``digests`` the moment its last byte arrives.
///
/// A write that does not continue the last one (a resume, another range) drops the chunk in
/// progress; ``ChunkDigests/complete(fromFile:length:)`` hashes such chunks from disk.
/// Not thread-safe: one owner feeds it in order (a transfer's sink, one range's sink).
final class ChunkHasher {
  /// Where completed chunks go.
  let digests: ChunkDigests
  private var current: SHA256?
  private var currentIndex = -1
  /// The offset the next byte must have to continue the chunk in progress.
  private var position: Int64 = -1
  /// The length of the file once known: a shorter last chunk completes at it.
  private let length: Int64?

  /// A hasher recording into `digests`; `length` makes the last, shorter chunk complete as
  /// it streams (without it, the last chunk waits for ``finish(atLength:)``).
  init(digests: ChunkDigests = ChunkDigests(), length: Int64? = nil) {
    self.digests = digests
    self.length = length
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
    let size = ChunkDigests.chunkSize
    while done < bytes.count {
      let index = Int(at / size)
      let chunkEnd = min(Int64(index + 1) * size, length ?? .max)
      let take = Int(min(Int64(bytes.count - done), chunkEnd - at))
      if current == nil, at == Int64(index) * size {
        current = SHA256()
        currentIndex = index
      }
      if let hasher = current, currentIndex == index {
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[done..<(done + take)]))
        if at + Int64(take) == chunkEnd {
          digests.record(index, sha256: hasher.finalizeHex())
          current = nil
          currentIndex = -1
        }
      }
      done += take
      at += Int64(take)
    }
    position = at
  }

  /// Completes the chunk in progress when the file ends at `length` (its last chunk).
  func finish(atLength length: Int64) {
    guard let hasher = current, position == length,
      Int64(currentIndex) * ChunkDigests.chunkSize < length
    else { return }
    digests.record(currentIndex, sha256: hasher.finalizeHex())
    current = nil
    currentIndex = -1
  }

  /// Forgets every chunk, completed or not (the part was emptied).
  func reset() {
    current = nil
    currentIndex = -1
    position = -1
    digests.reset()
  }
}
