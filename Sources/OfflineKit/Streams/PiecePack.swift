import Foundation
import OfflineLocks

/// One file that holds many small pieces of a stream, each written whole at an offset
/// reserved for it: a media playlist's segments that arrived within one write buffer, which
/// the offline playlist then addresses with `EXT-X-BYTERANGE` (RFC 8216, 4.3.2.2).
///
/// A piece in a file of its own costs a create, a rename and their look-ups in a folder of a
/// thousand names (a profile of a 1000-segment stream put them at 17 % of the process's
/// samples); appended here it costs one `pwrite`. Only a piece whose whole body is in memory
/// when it ends comes here, so nothing of it is ever on disk half-written: segment-level
/// resume is unchanged, and a larger or slower piece keeps its part and its file.
///
/// The bytes are written first and the piece's journal record (``TransferRecord/pack``)
/// after them, so the journal never points at bytes that were not written. A write whose
/// record never came (a crash between the two) leaves its region unclaimed; the next run
/// cuts the file after the last region a record it trusts claims, before it writes.
///
/// Shared by the pieces of one run, from any task: the offset is reserved under a lock, the
/// bytes are written outside it (regions never overlap).
final class PiecePack: Sendable {
  /// The absolute path of the pack.
  let path: String

  private struct State {
    var descriptor: Int32 = -1
    /// Where the next region starts.
    var end: Int64
  }
  private let state: Locked<State>

  /// A pack at `path` whose first `keeping` bytes are claimed by pieces an earlier run
  /// wrote; anything after them is cut when the first region is written.
  init(path: String, keeping: Int64) {
    self.path = path
    self.state = Locked(State(end: keeping))
  }

  deinit {
    let descriptor = state.withLock { $0.descriptor }
    if descriptor >= 0 { close(descriptor) }
  }

  /// Writes `bytes` in a region of their own; returns where it starts.
  ///
  /// - Throws: ``TransferFileError`` when the pack cannot be opened (something other than a
  ///   regular file at its path, a link included) or written; the region then stays
  ///   unclaimed.
  func write(_ bytes: UnsafeRawBufferPointer) throws(TransferFileError) -> Int64 {
    let (descriptor, offset) = try state.withLock {
      state throws(TransferFileError) -> (Int32, Int64) in
      if state.descriptor < 0 { state.descriptor = try open(cuttingTo: state.end) }
      defer { state.end += Int64(bytes.count) }
      return (state.descriptor, state.end)
    }
    do {
      try FileSteps.writeAll(bytes, at: offset, to: descriptor)
    } catch {
      var located = error
      located.path = path
      throw located
    }
    return offset
  }

  /// Opens the pack (creating it, and its folder, when missing) without following a link
  /// and without blocking on a FIFO, refuses anything but a regular file, and cuts what
  /// follows `length`: regions no trusted record claims.
  private func open(cuttingTo length: Int64) throws(TransferFileError) -> Int32 {
    let fd = try FileSteps.openMakingFolder(
      path, flags: O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    let info = try FileSteps.regularFile(fd, at: path)
    if Int64(info.st_size) > length, ftruncate(fd, off_t(length)) != 0 {
      let code = errno
      close(fd)
      throw TransferFileError(.truncate, errno: code, path: path)
    }
    return fd
  }
}
