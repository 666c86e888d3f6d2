/// What a delegate wants done with the body that follows a response head.
public enum HTTPBodyDisposition: Sendable, Equatable {
  /// Deliver the body to ``HTTPResponseDelegate/didReceiveBodyPart(_:)``.
  case receive
  /// Read the body from the connection and drop it (for example the text of a 416).
  case discard
  /// Stop the transfer now; ``HTTPTransporting/perform(_:delegate:)`` returns the head.
  case stop
}
