/// What every completion script knows about one command, read from its declaration: the
/// words after it, which options take a value, and what each value may be.
struct CompletionTable: Sendable {
  /// One command of the tree.
  struct Level: Sendable {
    /// `offline cache get`.
    let path: String
    /// Its declaration.
    let command: CommandConfiguration
    /// Its subcommands' names.
    var subcommands: [String] { command.subcommands.map(\.name) }
    /// Every option name it takes, `-h` and `--help` included.
    var optionNames: [String] { command.listedOptions.flatMap(\.names) }
    /// The names of its options that take a value (the next word is that value).
    var valuedNames: [String] { command.options.filter { !$0.isFlag }.flatMap(\.names) }
    /// What its first argument that has one offers, or nothing.
    var argumentCompletion: Completion {
      command.arguments.map(\.completion).first { $0 != .none } ?? .none
    }
  }

  /// Every command, root first, depth first.
  let levels: [Level]

  /// The table of the tree under `root`.
  init(root: CommandPath) {
    levels = root.tree.map { Level(path: $0.words, command: $0.command) }
  }

  /// The arms of a POSIX-style `case "$cmdpath $option" in` that completes a value: one per
  /// option that offers something, keyed `"offline get --output"`, and one per command whose
  /// argument offers something, keyed `"offline get "`. `reply` writes the shell code that
  /// offers a completion.
  func valueCaseArms(_ reply: (Completion) -> String) -> [String] {
    var arms: [String] = []
    for level in levels {
      for option in level.command.options where option.completion != .none {
        let keys = option.names.map { BashCompletion.quoted("\(level.path) \($0)") }
        arms.append("    \(keys.joined(separator: "|"))) \(reply(option.completion)) ;;")
      }
      if level.argumentCompletion != .none {
        let key = BashCompletion.quoted(level.path + " ")
        arms.append("    \(key)) \(reply(level.argumentCompletion)) ;;")
      }
    }
    return arms
  }
}
