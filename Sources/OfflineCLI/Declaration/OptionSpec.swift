/// One option's declaration without its value type: what parsing, help, completions and the
/// man page read. Made by ``Option``.
struct OptionSpec: Sendable {
  /// Its names as typed, short first: `-o`, `--output`.
  let names: [String]
  /// The name of its value in help (`path` shows as `<path>`); nil for a flag.
  let valueName: String?
  /// What it does, as help shows it.
  let help: String
  /// The value used when it is not given, as typed; shown as `(default: …)`.
  let defaultText: String?
  /// Whether it may be given more than once, each value kept.
  let isRepeatable: Bool
  /// What a shell offers for its value.
  let completion: Completion
  /// Reads one value; a value it refuses says what it takes.
  let convert: @Sendable (String) throws(ValueError) -> any Sendable
  /// Whether its values are blanked from the process's command line once read.
  var secrecy: ArgumentSecrecy = .none
  /// Whether the command cannot run without it: the parser refuses a command line that
  /// leaves it out ("Missing --output."), and the usage line shows it without brackets.
  var isRequired = false

  /// Declares an option; ``Option``'s factories are the usual way.
  init(
    names: [String], valueName: String?, help: String, defaultText: String? = nil,
    isRepeatable: Bool = false, completion: Completion = .none,
    convert: @escaping @Sendable (String) throws(ValueError) -> any Sendable = { $0 }
  ) {
    precondition(!names.isEmpty && names.allSatisfy { $0.hasPrefix("-") }, "option names")
    self.names = names
    self.valueName = valueName
    self.help = help
    self.defaultText = defaultText
    self.isRepeatable = isRepeatable
    self.completion = completion
    self.convert = convert
  }

  /// Whether it takes no value.
  var isFlag: Bool { valueName == nil }

  /// The name its values are kept under, and usage shows: the long one.
  var key: String { names[names.count - 1] }

  /// `-o, --output <path>`, as the OPTIONS rows show it.
  var label: String {
    names.joined(separator: ", ") + (valueName.map { " <\($0)>" } ?? "")
  }

  /// The help with the default, if any.
  var fullHelp: String {
    help + (defaultText.map { " (default: \($0))" } ?? "")
  }
}
