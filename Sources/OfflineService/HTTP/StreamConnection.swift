import Foundation
import OfflineLocks

/// A streaming body and its connection: suspends the connection when the stream has
/// nothing, and resumes it when the stream wakes it.
///
/// Suspending and resuming happen under one lock, so a wake between "nothing yet" and the
/// suspension cannot be lost, and a connection is never resumed unless it is suspended.
final class StreamConnection: Sendable {
  let stream: any HTTPBodyStream
  private let connection: ConnectionHandle
  private let suspended = Locked(false)

  init(stream: any HTTPBodyStream, connection: ConnectionHandle) {
    self.stream = stream
    self.connection = connection
  }

  /// Starts listening to the stream's wake-ups.
  func attach() {
    stream.setWaker { [weak self] in self?.wake() }
  }

  /// The next bytes, or 0 after suspending the connection (until ``wake()``), or nil at the
  /// end. Runs on the connection's pool thread.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    suspended.withLock { suspended in
      switch stream.read(into: buffer) {
      case .bytes(let count): return count
      case .end: return nil
      case .later:
        suspended = true
        connection.suspend()
        return 0
      }
    }
  }

  /// Resumes the connection if it waits for the stream.
  func wake() {
    suspended.withLock { suspended in
      guard suspended else { return }
      suspended = false
      connection.resume()
    }
  }
}
