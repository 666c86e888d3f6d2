import Foundation

/// What every command gets from the root command.
struct CommandContext: Sendable {
  /// The store: `--store`, else `$OFFLINE_STORE`, else the XDG data folder.
  let storeDirectory: URL
  /// Where output and messages go.
  let console: Console
}
