/// A request option that cannot be used as given: which option, and why. The value itself
/// is not repeated when it may hold a secret.
public struct RequestOptionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The option as a user writes it (`--header`, `--cookies`, `--limit-rate`…).
  public var option: String
  /// What is wrong, as a phrase.
  public var message: String

  /// Creates an error.
  public init(option: String, message: String) {
    self.option = option
    self.message = message
  }

  /// `--header: a header needs a colon between its name and value.`
  public var description: String { "\(option): \(message)." }
}
