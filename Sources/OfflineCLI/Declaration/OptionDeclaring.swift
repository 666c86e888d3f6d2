/// A typed option or argument declaration, listed in a ``CommandConfiguration``.
protocol OptionDeclaring: Sendable {
  /// The declaration without its value type.
  var spec: OptionSpec { get }
}

/// A typed positional argument declaration, listed in a ``CommandConfiguration``.
protocol ArgumentDeclaring: Sendable {
  /// The declaration without its value type.
  var spec: ArgumentSpec { get }
}
