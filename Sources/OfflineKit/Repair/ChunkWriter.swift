import Foundation
import OfflineStore

/// Writes staged chunks (``ChunkFetch``) into a file in place, for a repair.
enum ChunkWriter {
  /// Copies the staged part of each chunk in `indexes` into the file at `path` at the chunk's
  /// offset, fsyncs the file, then removes the part; finally cuts the file to `piece.size`.
  /// A kill between two steps leaves every staged part that is not yet written in.
  ///
  /// The file is never created (nor reached through a link): one deleted meanwhile (`rm` in
  /// another process) fails the write with `ENOENT` and stays deleted.
  static func writeIn(_ indexes: [Int], of piece: PieceRecord, at path: String)
    throws(TransferFileError)
  {
    let fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw TransferFileError(.open, errno: errno, path: path) }
    defer { close(fd) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    for index in indexes {
      let staged = ChunkFetch.stagedPath(of: path, chunk: index)
      let range = ChunkDigests.range(of: index, length: piece.size)
      let source = open(staged, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard source >= 0 else { throw TransferFileError(.open, errno: errno, path: staged) }
      defer { close(source) }
      var done: Int64 = 0
      while done < Int64(range.count) {
        let want = Int(min(Int64(buffer.count), Int64(range.count) - done))
        let got = pread(source, buffer.baseAddress, want, off_t(done))
        if got < 0, errno == EINTR { continue }
        guard got > 0 else { throw TransferFileError(.read, errno: got < 0 ? errno : EIO) }
        try FileSteps.writeAll(
          UnsafeRawBufferPointer(rebasing: buffer[0..<got]), at: range.lowerBound + done, to: fd)
        done += Int64(got)
      }
      guard Durability.syncData(fd) == 0 else {
        throw TransferFileError(.sync, errno: errno, path: path)
      }
      CrashPoint.reach(.repairAfterChunkWrite)
      unlink(staged)
    }
    guard ftruncate(fd, off_t(piece.size)) == 0, Durability.syncData(fd) == 0 else {
      throw TransferFileError(.truncate, errno: errno, path: path)
    }
  }
}
