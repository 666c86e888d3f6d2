import OfflineLocks

/// A body read from bytes a download is still writing, from one offset to another: what is on
/// disk is sent at once; when the next byte is not, the connection waits (suspended) until
/// the source wakes it. A file read through (``ReadThroughResponder``) and a stream's piece
/// arriving (``PieceResponder``) are its two sources, each given as three functions.
final class GrowingBodyStream: HTTPBodyStream {
  /// Reads the bytes there are at an offset into a buffer: `.bytes` (never 0), `.later`
  /// when the byte has not arrived (having asked for it, if the source can), `.end` when it
  /// never will (the response stops short: the player sees a cut connection).
  typealias Read = @Sendable (UnsafeMutableRawBufferPointer, Int64) -> StreamRead

  private let readAt: Read
  private let onChange: @Sendable ((@Sendable () -> Void)?) -> Void
  private let closeSource: @Sendable () -> Void
  private let last: Int64
  private let next: Locked<Int64>

  /// Streams the bytes `first` to `last` (both included) that `read` reads; `onChange` sets
  /// (or, with nil, stops) what the source calls when bytes land; `close` ends the source.
  init(
    from first: Int64, through last: Int64, read: @escaping Read,
    onChange: @escaping @Sendable ((@Sendable () -> Void)?) -> Void,
    close: @escaping @Sendable () -> Void
  ) {
    self.readAt = read
    self.onChange = onChange
    self.closeSource = close
    self.last = last
    self.next = Locked(first)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
    next.withLock { next in
      guard next <= last else { return .end }
      let room = Int(min(Int64(buffer.count), last - next + 1))
      let result = readAt(UnsafeMutableRawBufferPointer(rebasing: buffer[..<room]), next)
      switch result {
      case .bytes(let count) where count > 0:
        next += Int64(count)
        return result
      case .bytes, .end: return .end
      case .later: return .later
      }
    }
  }

  func setWaker(_ waker: @escaping @Sendable () -> Void) {
    onChange(waker)
  }

  func close() {
    onChange(nil)
    closeSource()
  }
}
