/// Receives one response as it streams in.
///
/// Callbacks run one at a time, in order, on a serial queue of the request's own (never on
/// the transport's network thread, and not always on the same thread, but each one finishes
/// before the next begins): ``didReceiveHead(_:)`` once for the final response (never for
/// 1xx responses or for redirects the transport follows), then ``didReceiveBodyPart(_:)``
/// zero or more times, each with at most a few dozen KiB. All of them have returned when
/// ``HTTPTransporting/perform(_:delegate:)`` returns; after a cancellation, parts not yet
/// delivered are dropped.
///
/// **Backpressure.** A delegate may take its time (write each part to disk, commit to a
/// database) without holding up any other transfer: the transport keeps at most about
/// 2 MiB of this response waiting for it, then pauses this transfer (the server is held back
/// by TCP) until the delegate has caught up. The body waits the same way for the answer to
/// the head. So a delegate that writes each part before returning makes its download go
/// exactly as fast as the disk takes it, with flat memory. A callback must never call back
/// into the transport.
///
/// **Failure.** Throwing from ``didReceiveBodyPart(_:)`` stops the transfer and no further
/// callback follows; `perform` then throws ``HTTPError/Code-swift.struct/delegateFailed``
/// carrying that error.
public protocol HTTPResponseDelegate: AnyObject, Sendable {
  /// Called once with the final response head; the answer decides what happens to the body.
  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition

  /// Called with each part of the body, in order, when the head's disposition was `.receive`.
  /// The buffer is valid only during the call.
  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws
}
