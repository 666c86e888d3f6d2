import Foundation

/// What a streaming body has for the connection right now.
enum StreamRead: Sendable, Equatable {
  /// This many bytes were written into the buffer.
  case bytes(Int)
  /// Nothing yet: the connection waits (suspended) until the stream wakes it.
  case later
  /// The body is complete.
  case end
}

/// A response body produced piece by piece (Server-Sent Events), read on a pool thread that
/// must not wait.
protocol HTTPBodyStream: AnyObject, Sendable {
  /// Writes the next bytes into `buffer`, if there are any; never waits.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead
  /// Sets what to call, from any thread, whenever bytes or the end arrive after a `read`
  /// said `.later`. Set once, before the first read.
  func setWaker(_ waker: @escaping @Sendable () -> Void)
  /// The connection is gone or the response is done; called once.
  func close()
}
