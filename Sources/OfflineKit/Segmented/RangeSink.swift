import Foundation
import OfflineHTTP

/// Receives one connection's range of a segmented download and writes it in place, at its
/// offsets in the shared part file.
///
/// `@unchecked Sendable`: its own members are touched on the transport's thread during the
/// request and read by the connection's task after it; shared state is in ``RangeBoard``.
final class RangeSink: HTTPResponseDelegate, @unchecked Sendable {
  /// Thrown from a body callback when the range is complete (its end may have moved back).
  struct RangeDone: Error {}

  let board: RangeBoard
  let slot: Int
  let descriptor: Int32
  let expectedStart: Int64
  private(set) var head: HTTPResponseHead?
  private(set) var accepted = false
  private(set) var rangeDone = false
  private(set) var writeFailure: TransferFileError?
  private(set) var received: Int64 = 0
  private var writeBehind: WriteBehind
  /// Hashes the chunks this range completes (nil: the transfer records none).
  private let chunks: ChunkHasher?

  init(board: RangeBoard, slot: Int, descriptor: Int32, chunks: ChunkHasher? = nil) {
    self.chunks = chunks
    self.board = board
    self.slot = slot
    self.descriptor = descriptor
    self.expectedStart = board.range(slot).next
    self.writeBehind = WriteBehind(descriptor: descriptor, from: expectedStart)
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    self.head = head
    guard head.status == 206, let header = head.headers["Content-Range"],
      case .satisfied(let first, _, _)? = ContentRange(header), first == expectedStart
    else { return .stop }
    accepted = true
    return .receive
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    let (offset, count) = board.placement(slot, count: bytes.count)
    if count > 0 {
      var done = 0
      while done < count {
        let wrote = pwrite(
          descriptor, bytes.baseAddress! + done, count - done, off_t(offset) + off_t(done))
        if wrote < 0, errno == EINTR { continue }
        guard wrote > 0 else {
          let failure = TransferFileError(.write, errno: wrote < 0 ? errno : EIO)
          writeFailure = failure
          throw failure
        }
        done += wrote
      }
      chunks?.update(UnsafeRawBufferPointer(rebasing: bytes[..<count]), at: offset)
      board.didWrite(slot, count: count)
      received += Int64(count)
      writeBehind.wrote(upTo: offset + Int64(count))
    }
    if count < bytes.count || board.range(slot).remaining == 0 {
      rangeDone = true
      throw RangeDone()
    }
  }
}
