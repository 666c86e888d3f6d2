/// What one command's declaration accepted, as typed values: read an option with
/// `arguments[Self.output]` and an argument with `arguments[Self.url]`.
struct ParsedArguments: Sendable {
  /// The name the command was called by (one type may serve several, as `pause` and `rm`).
  let commandName: String
  private let declaredOptions: Set<String>
  private let declaredArguments: Set<String>
  private var optionValues: [String: [any Sendable]] = [:]
  private var argumentValues: [String: [any Sendable]] = [:]
  /// The surroundings of the run the arguments were given to (environment, standard
  /// input), for what a command reads while it is made (a secret from a variable, a
  /// password asked for on the terminal).
  var host: CommandHost = .detached
  /// The text typed for each option whose values may be secrets, with its secrecy.
  private(set) var secrecyTexts: [(ArgumentSecrecy, String)] = []

  /// Nothing given yet for `command`.
  init(for command: CommandConfiguration) {
    commandName = command.name
    declaredOptions = Set(command.options.map(\.key))
    declaredArguments = Set(command.arguments.map(\.name))
  }

  /// The option's value: what was given, its default, or nil / false / [] when neither.
  subscript<Value>(option: Option<Value>) -> Value {
    precondition(
      declaredOptions.contains(option.spec.key),
      "\(option.spec.key) is read by '\(commandName)' but not in its configuration")
    return option.read(optionValues[option.spec.key] ?? [])
  }

  /// The argument's value.
  subscript<Value>(argument: Argument<Value>) -> Value {
    precondition(
      declaredArguments.contains(argument.spec.name),
      "<\(argument.spec.name)> is read by '\(commandName)' but not in its configuration")
    return argument.read(argumentValues[argument.spec.name] ?? [])
  }

  /// Whether the option was given on the command line.
  func wasGiven(_ option: some OptionDeclaring) -> Bool {
    wasGiven(key: option.spec.key)
  }

  /// Whether the option kept under `key` (its long name) was given on the command line.
  func wasGiven(key: String) -> Bool {
    !(optionValues[key] ?? []).isEmpty
  }

  mutating func record(_ value: any Sendable, for option: OptionSpec) {
    optionValues[option.key, default: []].append(value)
  }

  /// Keeps `text`, typed for `option`, when the option's values may be secrets.
  mutating func recordText(_ text: String, for option: OptionSpec) {
    if option.secrecy != .none { secrecyTexts.append((option.secrecy, text)) }
  }

  mutating func record(_ value: any Sendable, for argument: ArgumentSpec) {
    argumentValues[argument.name, default: []].append(value)
  }

  func count(of argument: ArgumentSpec) -> Int { argumentValues[argument.name]?.count ?? 0 }
}
