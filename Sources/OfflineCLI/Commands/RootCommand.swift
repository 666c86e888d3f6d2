import Foundation
import OfflineKit

/// `offline` itself: the store every subcommand works on, `--version`, and the subcommands.
struct RootCommand: Command {
  static let store: Option<String?> = .value(
    "--store", valueName: "dir",
    help: "The store: the download index and offline content. Default: $OFFLINE_STORE, else"
      + " $XDG_DATA_HOME/offline, else ~/.local/share/offline.",
    parser: .directory)
  static let version: Option<Bool> = .flag("--version", help: "Show the version.")

  static let configuration = CommandConfiguration(
    name: "offline",
    abstract: "Make remote files available offline: resumable, verified downloads.",
    options: [store, version],
    subcommands: [
      GetCommand.configuration, AddCommand.configuration, ListCommand.configuration,
      RunCommand.configuration, ServeCommand.configuration, InfoCommand.configuration,
      CacheCommand.configuration,
      VerifyCommand.configuration, RepairCommand.configuration, ExportCommand.configuration,
    ] + ContentCommand.configurations + [
      SetURLCommand.configuration, LimitCommand.configuration,
      CompletionsCommand.configuration, HelpCommand.configuration,
    ],
    command: Self.self)

  /// `--store`, if given.
  let storePath: String?
  /// Whether `--version` was given.
  let showsVersion: Bool

  init(_ arguments: ParsedArguments) {
    storePath = arguments[Self.store]
    showsVersion = arguments[Self.version]
  }

  func run(_ context: CommandContext) async throws(UsageError) -> Int32 {
    throw UsageError("Missing subcommand.")
  }
}
