/// A mistake in how a command was called: printed as `Error: …` with the command's usage
/// line and a pointer to its help, and the tool exits 64.
struct UsageError: Error, Sendable, CustomStringConvertible {
  /// What was wrong, as a sentence.
  let message: String

  /// A usage error saying `message`.
  init(_ message: String) { self.message = message }

  var description: String { message }
}
