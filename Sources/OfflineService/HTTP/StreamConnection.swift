import Foundation
import OfflineLocks

/// A streaming body and its connection: suspends the connection when the stream has
/// nothing, and resumes it when the stream wakes it, or when the server ends it to stop.
///
/// Suspending and resuming happen under one lock, so a wake between "nothing yet" and the
/// suspension cannot be lost, and a connection is never resumed unless it is suspended.
final class StreamConnection: Sendable {
  let stream: any HTTPBodyStream
  /// The server's context, which keeps the streams being sent until they are freed.
  let context: ServerContext
  private let connection: ConnectionHandle
  private let state = Locked((suspended: false, ended: false))

  init(stream: any HTTPBodyStream, connection: ConnectionHandle, context: ServerContext) {
    self.stream = stream
    self.connection = connection
    self.context = context
  }

  /// Starts listening to the stream's wake-ups.
  func attach() {
    stream.setWaker { [weak self] in self?.wake() }
  }

  /// The next bytes, or 0 after suspending the connection (until ``wake()``), or nil at the
  /// end (of the stream, or the server's ``end()``). Runs on the connection's pool thread.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    state.withLock { state in
      guard !state.ended else { return nil }
      switch stream.read(into: buffer) {
      case .bytes(let count): return count
      case .end: return nil
      case .later:
        state.suspended = true
        connection.suspend()
        return 0
      }
    }
  }

  /// Resumes the connection if it waits for the stream.
  func wake() {
    state.withLock { state in
      guard state.suspended else { return }
      state.suspended = false
      connection.resume()
    }
  }

  /// Ends the body now (the server stops): the connection resumes if it waited, and reads
  /// no more.
  func end() {
    state.withLock { state in
      state.ended = true
      guard state.suspended else { return }
      state.suspended = false
      connection.resume()
    }
  }
}
