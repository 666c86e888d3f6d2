import Foundation
import OfflineKit
import OfflineLocks

/// The bytes of a stream's piece from one offset to another as they arrive
/// (``OfflineKit/ArrivingPiece``): what is on disk is read at once; when the next byte is
/// not, the connection waits (suspended) until the download's next progress tick, landing or
/// stop. A piece that starts over or stops without landing ends the response short, which
/// the player sees as a cut connection.
final class ArrivingPieceStream: HTTPBodyStream {
  private let piece: ArrivingPiece
  private let last: Int64
  private let next: Locked<Int64>

  /// Streams the bytes `first` to `last` (both included) of `piece`.
  init(piece: ArrivingPiece, from first: Int64, through last: Int64) {
    self.piece = piece
    self.last = last
    self.next = Locked(first)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
    next.withLock { next in
      guard next <= last else { return .end }
      let room = Int(min(Int64(buffer.count), last - next + 1))
      switch piece.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<room]), at: next) {
      case .bytes(let read) where read > 0:
        next += Int64(read)
        return .bytes(read)
      case .notYet:
        return .later
      case .bytes, .gone:
        return .end
      }
    }
  }

  func setWaker(_ waker: @escaping @Sendable () -> Void) {
    piece.onChange(waker)
  }

  func close() {
    piece.close()
  }
}
