/// Reads a command line against the declarations: picks each subcommand, converts every value
/// to its type, and stops with help or a usage error that names the command it is about.
enum CommandParser {
  /// A command line that parsed: the command it names and what each level accepted.
  struct Invocation: Sendable {
    /// The command to run, with the commands above it.
    let path: CommandPath
    /// What each level of `path` accepted, root first.
    let levels: [ParsedArguments]

    /// What the command to run accepted.
    var arguments: ParsedArguments { levels[levels.count - 1] }

    /// The secrets typed on the command line (see ``ArgumentSecrecy``).
    var secretTexts: [String] {
      ArgumentSecrecy.secrets(among: levels.flatMap(\.secrecyTexts))
    }
  }

  /// Parses `arguments` (without the program's name) from `root` down. With a `host`, a
  /// relative file or folder path among them is made absolute against its working folder
  /// before it is read (messages still quote it as typed), and every level carries the host.
  static func parse(
    _ arguments: [String], root: CommandConfiguration, host: CommandHost? = nil
  ) throws(ParseStop) -> Invocation {
    var path = CommandPath(root: root)
    var levels: [ParsedArguments] = []
    var rest = arguments
    while true {
      let level = try parseLevel(rest, at: path, host: host)
      levels.append(level.parsed)
      guard let (child, remaining) = level.subcommand else {
        return Invocation(path: path, levels: levels)
      }
      path = path.appending(child)
      rest = remaining
    }
  }

  private struct Level {
    var parsed: ParsedArguments
    var subcommand: (CommandConfiguration, [String])?
  }

  private static func parseLevel(
    _ arguments: [String], at path: CommandPath, host: CommandHost?
  ) throws(ParseStop) -> Level {
    let command = path.command
    var level = Level(parsed: ParsedArguments(for: command))
    if let host { level.parsed.host = host }
    /// The text a value is read from: a path made absolute when there is a host.
    func located(_ text: String, _ completion: Completion) -> String {
      guard let host, completion == .file || completion == .directory else { return text }
      return host.absolutePath(text)
    }
    var scanner = ArgumentScanner(arguments)
    var argumentIndex = 0
    var helpRequested = false
    do throws(UsageError) {
      scan: while let item = scanner.next() {
        switch item {
        case .option(let name, _) where CommandConfiguration.help.names.contains(name):
          helpRequested = true
          break scan
        case .option(let name, let inline):
          guard let option = command.options.first(where: { $0.names.contains(name) }) else {
            throw UsageError("Unknown option '\(name)'.")
          }
          if option.isFlag {
            guard inline == nil else { throw UsageError("Option '\(name)' takes no value.") }
            level.parsed.record(true, for: option)
            continue
          }
          let text = try scanner.value(for: name, inline: inline)
          level.parsed.recordText(text, for: option)
          do {
            level.parsed.record(
              try option.convert(located(text, option.completion)), for: option)
          } catch {
            throw UsageError(error.message(option: name, value: text))
          }
        case .positional(let text) where !command.subcommands.isEmpty:
          guard let child = command.subcommand(named: text) else {
            throw UsageError("Unknown subcommand '\(text)'.")
          }
          level.subcommand = (child, scanner.takeRest())
          break scan
        case .positional(let text):
          guard argumentIndex < command.arguments.count else {
            throw UsageError("Unexpected argument '\(text)'.")
          }
          let argument = command.arguments[argumentIndex]
          do {
            level.parsed.record(
              try argument.convert(located(text, argument.completion)), for: argument)
          } catch {
            throw UsageError(error.message(argument: argument.name, value: text))
          }
          if !argument.isRepeatable { argumentIndex += 1 }
        }
      }
      for argument in command.arguments
      where !helpRequested && level.subcommand == nil && !argument.isOptional
        && level.parsed.count(of: argument) == 0
      {
        throw UsageError("Missing \(argument.noun).")
      }
      for option in command.options
      where !helpRequested && level.subcommand == nil && option.isRequired
        && !level.parsed.wasGiven(key: option.key)
      {
        throw UsageError("Missing \(option.key).")
      }
    } catch {
      throw .usage(error, path)
    }
    if helpRequested { throw .helpRequested(path) }
    return level
  }
}
