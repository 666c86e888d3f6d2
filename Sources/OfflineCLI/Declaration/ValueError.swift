/// Why a value was refused, as the option's or argument's error message says it.
struct ValueError: Error, Sendable {
  /// What was wrong.
  enum Kind: Sendable {
    /// What the option takes: "--retries takes a whole number above 0, not 'x'."
    case expected(String)
    /// A reason of its own, for values that must not be echoed (a proxy with a password).
    case reason(String)
  }

  /// What was wrong.
  let kind: Kind

  /// The value did not have the expected form.
  static func expected(_ text: String) -> ValueError { ValueError(kind: .expected(text)) }

  /// The value was refused for this reason.
  static func reason(_ text: String) -> ValueError { ValueError(kind: .reason(text)) }

  /// The message for `value` given to option `name`.
  func message(option name: String, value: String) -> String {
    switch kind {
    case .expected(let text): "\(name) takes \(text), not '\(value)'."
    case .reason(let text): "\(name): \(text)."
    }
  }

  /// The message for `value` given as argument `<name>`.
  func message(argument name: String, value: String) -> String {
    switch kind {
    case .expected(let text): "'\(value)' is not \(text)."
    case .reason(let text): "<\(name)>: \(text)."
    }
  }
}
