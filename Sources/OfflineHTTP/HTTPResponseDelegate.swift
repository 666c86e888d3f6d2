/// What a delegate wants done with the body that follows a response head.
public enum HTTPBodyDisposition: Sendable, Equatable {
  /// Deliver the body to ``HTTPResponseDelegate/didReceiveBodyPart(_:)``.
  case receive
  /// Read the body from the connection and drop it (for example the text of a 416).
  case discard
  /// Stop the transfer now; ``HTTPTransporting/perform(_:delegate:)`` returns the head.
  case stop
}

/// Receives one response as it streams in.
///
/// Callbacks run on the transport's own network thread, one at a time, in order:
/// ``didReceiveHead(_:)`` once for the final response (never for 1xx responses or for redirects
/// the transport follows), then ``didReceiveBodyPart(_:)`` zero or more times, each with at
/// most a few dozen KiB.
///
/// **Backpressure.** The network waits while a callback runs: a delegate that writes each part
/// to disk before returning makes the download go exactly as fast as the disk takes it, with
/// flat memory. Because one thread serves every transfer of a transport, a callback must not
/// block on anything but local I/O, and must never call back into the transport.
///
/// **Failure.** Throwing from ``didReceiveBodyPart(_:)`` stops the transfer; `perform` then
/// throws ``HTTPError/Kind-swift.enum/delegateFailed`` carrying that error.
public protocol HTTPResponseDelegate: AnyObject, Sendable {
  /// Called once with the final response head; the answer decides what happens to the body.
  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition

  /// Called with each part of the body, in order, when the head's disposition was `.receive`.
  /// The buffer is valid only during the call.
  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws
}
