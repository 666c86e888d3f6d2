/// Walks a command's arguments: options with values (`-o PATH`, `--output PATH`,
/// `--output=PATH`), flags, and positional arguments; `--` ends options.
struct ArgumentScanner {
  private var remaining: [String]
  private var optionsEnded = false

  init(_ arguments: [String]) {
    self.remaining = arguments
  }

  /// One parsed argument.
  enum Item {
    case option(name: String, inlineValue: String?)
    case positional(String)
  }

  /// The next argument, or nil at the end.
  mutating func next() -> Item? {
    guard !remaining.isEmpty else { return nil }
    let argument = remaining.removeFirst()
    if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
      return .positional(argument)
    }
    if argument == "--" {
      optionsEnded = true
      return next()
    }
    if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
      return .option(
        name: String(argument[..<equals]),
        inlineValue: String(argument[argument.index(after: equals)...]))
    }
    return .option(name: argument, inlineValue: nil)
  }

  /// The value of option `name`: its inline value, else the next argument.
  mutating func value(for name: String, inline: String?) throws(UsageError) -> String {
    if let inline { return inline }
    guard !remaining.isEmpty else { throw UsageError("Missing value for option '\(name)'.") }
    return remaining.removeFirst()
  }

  /// Everything not yet read, unparsed (for a subcommand); after `--`, still after it.
  mutating func takeRest() -> [String] {
    defer { remaining = [] }
    return optionsEnded ? ["--"] + remaining : remaining
  }
}
