import Foundation
import OfflineKit

/// The `offline` command: global options, then a subcommand.
///
/// ```
/// offline [--store <dir>] get <url> [--output <path>] [--sha256 <hex>] ...
/// ```
public enum OfflineTool {
  /// Runs the tool with `arguments` (without the program name) and returns the exit code.
  /// SIGINT and SIGTERM stop a running command cleanly, with exit code 130 or 143.
  ///
  /// - Parameter blanksProcessArguments: Whether the secrets among the arguments (`-u`'s,
  ///   a secret header's, a proxy's `user:password@`, `serve --token`'s) are blanked from
  ///   the process's own command line once parsed, so that `ps` never shows them: the
  ///   `offline` executable passes true, a caller whose `arguments` are not its own argv
  ///   false.
  public static func main(
    arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    blanksProcessArguments: Bool = false
  ) async -> Int32 {
    let console = Console()
    let work = Task {
      await dispatch(
        arguments, environment: environment, console: console,
        blanksProcessArguments: blanksProcessArguments)
    }
    let trap = SignalTrap(cancelling: work)
    let code = await work.value
    return trap.exitCode ?? code
  }

  private static func dispatch(
    _ arguments: [String], environment: [String: String], console: Console,
    blanksProcessArguments: Bool
  ) async -> Int32 {
    let invocation: CommandParser.Invocation
    do {
      invocation = try CommandParser.parse(arguments, root: RootCommand.configuration)
    } catch {
      return report(error, console: console)
    }
    if blanksProcessArguments { ProcessArguments.blank(invocation.secretTexts) }
    let path = invocation.path
    do throws(UsageError) {
      let root = RootCommand(invocation.levels[0])
      if root.showsVersion {
        console.out("offline \(OfflineKitVersion.string)")
        return ExitCode.success
      }
      let context = CommandContext(
        storeDirectory: StoreLocation.resolve(explicit: root.storePath, environment: environment),
        console: console)
      let command = try path.command.command.init(invocation.arguments)
      return try await command.run(context)
    } catch {
      return report(.usage(error, path), console: console)
    }
  }

  /// Prints a help page (exit 0), or a usage error with the command's usage line and where
  /// its help is (exit 64).
  static func report(_ stop: ParseStop, console: Console) -> Int32 {
    switch stop {
    case .helpRequested(let path):
      console.out(HelpText(path: path).render())
      return ExitCode.success
    case .usage(let error, let path):
      console.err("Error: \(error.message)")
      console.err(UsageLine.render(path, prefix: "Usage: "))
      console.err("  See '\(path.words) --help'.")
      return ExitCode.usage
    }
  }
}
