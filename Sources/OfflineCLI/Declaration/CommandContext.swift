import Foundation

/// What every command gets from the root command.
struct CommandContext: Sendable {
  /// The store: `--store`, else `$OFFLINE_STORE`, else the XDG data folder.
  let storeDirectory: URL
  /// The run's surroundings: environment, standard input, working folder, console.
  let host: CommandHost
  /// Where output and messages go.
  var console: Console { host.console }
}
