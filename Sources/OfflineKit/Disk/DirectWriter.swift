import CSystem
import Foundation

/// Writes whole blocks of a part file past the page cache: a second descriptor of the same
/// file, opened with `O_DIRECT` (Linux), through which the device reads the bytes straight
/// from the writer's buffer.
///
/// A download is written once and made durable before it is renamed; through the page
/// cache each byte was copied into a freshly allocated page and then written back by the
/// `fdatasync`. On this project's 2-core VM that copy was the tool's most variable cost: the
/// same 1 GiB took 0.2 to 2.5 s of system time with `dd` from one minute to the next, and the
/// rounds where it was slow were the rounds `offline get` lost to curl (which pays the copy
/// but never the sync). Written directly, the same download took 0.7-0.8 s of CPU in every
/// round (`docs/Performance.md`, "Session 23").
///
/// Only whole blocks go this way: the offset, the length and the buffer's address must all
/// be multiples of ``blockSize`` (4096 covers every common device's logical block). The
/// owner writes the rest through its ordinary descriptor. Where the platform or the file
/// system refuses (`/proc` missing, a file system without `O_DIRECT`, Apple platforms), no
/// writer is made and everything goes through the page cache as before.
///
/// Not thread-safe: the owner calls it from one thread at a time.
final class DirectWriter {
  /// What offsets, lengths and buffer addresses must be multiples of.
  static let blockSize = 4096

  /// Whether this platform can write past the page cache at all (Linux).
  static let isSupported: Bool = {
    #if os(Linux)
      return true
    #else
      return false
    #endif
  }()

  /// The outcome of one write.
  enum Outcome {
    /// This many bytes reached the device (fewer than asked only when it ran out of room).
    case wrote(Int)
    /// The file system refused a direct write of these blocks (`EINVAL`): write them, and
    /// everything after, through the page cache.
    case refused
    /// The write failed with this `errno`.
    case failed(Int32)
  }

  private let descriptor: Int32

  /// Opens the file `descriptor` is open on for direct writes; nil where that is refused.
  init?(sameFileAs descriptor: Int32) {
    guard Self.isSupported else { return nil }
    let direct = ok_open_direct_writer(descriptor)
    guard direct >= 0 else { return nil }
    self.descriptor = direct
  }

  deinit {
    close(descriptor)
  }

  /// Writes `bytes` (whole blocks, from a block-aligned address) at `offset` (a block
  /// boundary), retrying when a signal interrupts.
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Outcome {
    precondition(
      bytes.count % Self.blockSize == 0 && offset % Int64(Self.blockSize) == 0
        && Int(bitPattern: bytes.baseAddress) % Self.blockSize == 0,
      "a direct write takes whole blocks")
    while true {
      let wrote = pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(offset))
      if wrote >= 0 { return .wrote(wrote) }
      switch errno {
      case EINTR: continue
      case EINVAL: return .refused
      case let code: return .failed(code)
      }
    }
  }
}
