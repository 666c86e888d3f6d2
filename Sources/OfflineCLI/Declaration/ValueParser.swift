/// How one kind of value is read from the command line: its type, what a refused value is
/// told it should be, and what a shell offers for it. The common ones are static members
/// (`.string`, `.integer(atLeast:)`, `.byteCount`, `.choice(Shell.self)`…).
struct ValueParser<Value: Sendable>: Sendable {
  /// What a shell offers for the value.
  let completion: Completion
  /// Reads the value, or says what it should have been.
  let read: @Sendable (String) throws(ValueError) -> Value

  /// A parser from a function that reads the value.
  init(
    completion: Completion = .none,
    read: @escaping @Sendable (String) throws(ValueError) -> Value
  ) {
    self.completion = completion
    self.read = read
  }

  /// A parser from a failable conversion; nil is refused with "takes `expectation`".
  init(
    _ expectation: String, completion: Completion = .none,
    convert: @escaping @Sendable (String) -> Value?
  ) {
    self.init(completion: completion) { (text: String) throws(ValueError) -> Value in
      guard let value = convert(text) else { throw .expected(expectation) }
      return value
    }
  }

  /// The same reading, its value type left out (for ``OptionSpec`` and ``ArgumentSpec``).
  var convertAny: @Sendable (String) throws(ValueError) -> any Sendable {
    let read = self.read
    return { (text: String) throws(ValueError) -> any Sendable in try read(text) }
  }
}
