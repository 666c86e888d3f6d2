import Foundation
import OfflineKit

/// The `offline` command: global options, then a subcommand.
///
/// ```
/// offline [--store DIR] get URL [-o PATH] [--sha256 HEX] [--quiet] [--json]
/// ```
public enum OfflineTool {
  static let usage = "offline [--store <dir>] <subcommand>"

  static let help = HelpText(
    overview: "Make remote files available offline: resumable, verified downloads.",
    usage: usage,
    arguments: [],
    options: [
      (
        "--store <dir>",
        "The store: the download index and offline content. Default:"
          + " $OFFLINE_STORE, else $XDG_DATA_HOME/offline, else ~/.local/share/offline."
      ),
      ("--version", "Show the version."),
      ("-h, --help", "Show help information."),
    ],
    subcommands: [
      ("get", GetCommand.help.overview), ("add", AddCommand.help.overview),
      ("ls", ListCommand.help.overview), ("run", RunCommand.help.overview),
      ("info", InfoCommand.help.overview),
      ("cache", CacheCommand.help.overview),
    ] + ContentCommand.Verb.allCases.map { ($0.rawValue, $0.abstract) },
    footer: "See 'offline help <subcommand>' for detailed help.")

  /// Runs the tool with `arguments` (without the program name) and returns the exit code.
  /// SIGINT and SIGTERM stop a running command cleanly, with exit code 130 or 143.
  public static func main(
    arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
  ) async -> Int32 {
    let console = Console()
    let work = Task { await dispatch(arguments, environment: environment, console: console) }
    let trap = SignalTrap(cancelling: work)
    let code = await work.value
    return trap.exitCode ?? code
  }

  private static func dispatch(
    _ arguments: [String], environment: [String: String], console: Console
  ) async -> Int32 {
    do throws(UsageError) {
      var scanner = ArgumentScanner(arguments, usage: usage)
      var store: String?
      while let item = scanner.next() {
        switch item {
        case .option(let name, let inline):
          switch name {
          case "--store": store = try scanner.value(for: name, inline: inline)
          case "-h", "--help":
            console.out(help.render())
            return ExitCode.success
          case "--version":
            console.out("offline \(OfflineKitVersion.string)")
            return ExitCode.success
          default: throw scanner.unknown(name)
          }
        case .positional(let subcommand):
          let rest = scanner.takeRest()
          let context = CommandContext(
            storeDirectory: StoreLocation.resolve(explicit: store, environment: environment),
            console: console)
          switch subcommand {
          case "get":
            return await GetCommand.run(try GetCommand.parse(rest), context: context)
          case "add":
            return await AddCommand.run(try AddCommand.parse(rest), context: context)
          case "ls":
            return await ListCommand.run(try ListCommand.parse(rest), context: context)
          case "run":
            return await RunCommand.run(try RunCommand.parse(rest), context: context)
          case "info":
            return await InfoCommand.run(try InfoCommand.parse(rest), context: context)
          case "cache":
            return await CacheCommand.run(try CacheCommand.parse(rest), context: context)
          case "serve":
            return await ServeCommand.run(try ServeCommand.parse(rest), context: context)
          case let verb where ContentCommand.Verb(rawValue: verb) != nil:
            let command = try ContentCommand.parse(ContentCommand.Verb(rawValue: verb)!, rest)
            return await ContentCommand.run(command, context: context)
          case "help":
            return showHelp(for: rest.first, console: console)
          default:
            throw UsageError(message: "Unknown subcommand '\(subcommand)'.", usage: usage)
          }
        }
      }
      throw UsageError(message: "Missing subcommand.", usage: usage)
    } catch {
      console.err("Error: \(error.message)")
      console.err("Usage: \(error.usage)")
      console.err("  See 'offline --help'.")
      return ExitCode.usage
    }
  }

  private static func showHelp(for subcommand: String?, console: Console) -> Int32 {
    switch subcommand {
    case nil:
      console.out(help.render())
    case "get":
      console.out(GetCommand.help.render())
    case "add":
      console.out(AddCommand.help.render())
    case "ls":
      console.out(ListCommand.help.render())
    case "run":
      console.out(RunCommand.help.render())
    case "info":
      console.out(InfoCommand.help.render())
    case "cache":
      console.out(CacheCommand.help.render())
    case let verb? where ContentCommand.Verb(rawValue: verb) != nil:
      console.out(ContentCommand.Verb(rawValue: verb)!.help.render())
    case let other?:
      console.err("Error: Unknown subcommand '\(other)'.")
      return ExitCode.usage
    }
    return ExitCode.success
  }
}

/// What every subcommand gets from the root command.
struct CommandContext: Sendable {
  let storeDirectory: URL
  let console: Console
}
