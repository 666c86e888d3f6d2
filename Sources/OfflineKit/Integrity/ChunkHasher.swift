import Foundation

/// Hashes the chunks of a file (``ChunkDigests/chunkSize``) from bytes written in order at
/// known offsets, as they stream: a chunk whose every byte this hasher saw, from its first,
/// is recorded in ``digests`` the moment its last byte arrives (a ``BlockHasher`` of chunks).
///
/// A write that does not continue the last one (a resume, another range) drops the chunk in
/// progress; ``ChunkDigests/complete(fromFile:length:alsoFeeding:)`` hashes such chunks from
/// disk. Not thread-safe: one owner feeds it in order (a transfer's sink, one range's sink).
final class ChunkHasher {
  /// Where completed chunks go.
  let digests: ChunkDigests
  private let blocks: BlockHasher

  /// A hasher recording into `digests`; `length` makes the last, shorter chunk complete as
  /// it streams (without it, the last chunk waits for ``finish(atLength:)``).
  init(digests: ChunkDigests = ChunkDigests(), length: Int64? = nil) {
    self.digests = digests
    self.blocks = BlockHasher(blockSize: ChunkDigests.chunkSize, length: length) {
      digests.record($0, sha256: $1)
    }
  }

  /// Feeds `bytes`, which were written at `offset`.
  func update(_ bytes: UnsafeRawBufferPointer, at offset: Int64) {
    blocks.update(bytes, at: offset)
  }

  /// Completes the chunk in progress when the file ends at `length` (its last chunk).
  func finish(atLength length: Int64) {
    blocks.finish(atLength: length)
  }

  /// Forgets every chunk, completed or not (the part was emptied).
  func reset() {
    blocks.reset()
    digests.reset()
  }
}
