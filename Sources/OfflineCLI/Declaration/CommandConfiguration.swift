/// The declaration of one command: its name, what it does, and what it takes. Parsing,
/// `--help`, the usage line, usage errors, completions and the man page are all made from it.
struct CommandConfiguration: Sendable {
  /// The word that names it on the command line (`get`, `limit`).
  let name: String
  /// One sentence: the OVERVIEW line and the row in its parent's SUBCOMMANDS.
  let abstract: String
  /// More text, shown after the sections of its `--help` and in the man page.
  let discussion: String?
  /// Its positional arguments, in order.
  let arguments: [ArgumentSpec]
  /// Its options (`-h, --help` is added to every command).
  let options: [OptionSpec]
  /// The commands below it (`cache get`); the first positional argument picks one.
  let subcommands: [CommandConfiguration]
  /// The type that runs it (a group's runs when no subcommand is given).
  let command: any Command.Type

  /// Declares a command; options and arguments are the values declared beside it.
  init(
    name: String, abstract: String, discussion: String? = nil,
    arguments: [any ArgumentDeclaring] = [], options: [any OptionDeclaring] = [],
    subcommands: [CommandConfiguration] = [], command: any Command.Type
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments.map(\.spec)
    self.options = options.map(\.spec)
    self.subcommands = subcommands
    self.command = command
  }

  /// The help option every command takes.
  static let help = OptionSpec(
    names: ["-h", "--help"], valueName: nil, help: "Show help information.")

  /// Its options as `--help` lists them: the declared ones, then `-h, --help`.
  var listedOptions: [OptionSpec] { options + [Self.help] }

  /// The subcommand named `name`.
  func subcommand(named name: String) -> CommandConfiguration? {
    subcommands.first { $0.name == name }
  }
}
