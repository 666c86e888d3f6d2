/// A command with the commands above it, root first: `offline`, `cache`, `get`.
struct CommandPath: Sendable {
  /// The commands from the root down to this one.
  let levels: [CommandConfiguration]

  /// The root command alone.
  init(root: CommandConfiguration) { levels = [root] }

  private init(levels: [CommandConfiguration]) { self.levels = levels }

  /// This command's declaration.
  var command: CommandConfiguration { levels[levels.count - 1] }

  /// The path to one of this command's subcommands.
  func appending(_ child: CommandConfiguration) -> CommandPath {
    CommandPath(levels: levels + [child])
  }

  /// The names as a user types them: `offline cache get`.
  var words: String { levels.map(\.name).joined(separator: " ") }

  /// The path named by `names` below this one, or the first name that is not a subcommand.
  func descendant(_ names: [String]) -> Result<CommandPath, UsageError> {
    var path = self
    for name in names {
      guard let child = path.command.subcommand(named: name) else {
        return .failure(UsageError("Unknown subcommand '\(name)' of '\(path.words)'."))
      }
      path = path.appending(child)
    }
    return .success(path)
  }

  /// This path and every path below it, depth first, in declaration order.
  var tree: [CommandPath] {
    [self] + command.subcommands.flatMap { appending($0).tree }
  }
}
