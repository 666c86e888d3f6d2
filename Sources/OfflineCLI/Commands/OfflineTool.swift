import Foundation
import OfflineKit

/// The `offline` command: global options, then a subcommand.
///
/// ```
/// offline [--store <dir>] get <url> [--output <path>] [--sha256 <hex>] ...
/// ```
public enum OfflineTool {
  /// Runs the tool as the process (the `offline` executable) with `arguments` (without the
  /// program name) and returns the exit code. It writes to file descriptors 1 and 2, reads
  /// descriptor 0, starts relative paths at the process's current folder, and SIGINT and
  /// SIGTERM stop a running command cleanly, with exit code 130 or 143.
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
    let host = CommandHost(
      environment: environment, standardInput: .process,
      workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
      console: StandardStreamsConsole(), ownsProcess: true)
    let trap = SignalTrap()
    let work = Task {
      await dispatch(arguments, host: host, blanksProcessArguments: blanksProcessArguments)
    }
    trap.cancels(work)
    let code = await work.value
    return trap.exitCode ?? code
  }

  /// Runs the tool inside the calling program with `arguments` (without the program name)
  /// and returns the exit code the executable would exit with.
  ///
  /// Nothing process-wide is read or changed: the run sees `environment` (not the
  /// process's), reads `standardInput`, starts relative paths (`--output`, `-i`, `--store`...)
  /// at `workingDirectory` (never the process's current folder), and writes to `console`.
  /// It installs no signal handler, never blanks the process's arguments, and never ends the
  /// process (`serve` stops when the calling task is cancelled). Cancelling the calling task
  /// stops the command as SIGINT stops the executable, partial data and journal kept, and the
  /// run returns 130 as the executable would.
  ///
  /// ```swift
  /// let code = await OfflineTool.run(
  ///   arguments: ["--store", store.path, "ls", "--json"], environment: [:],
  ///   standardInput: .empty, workingDirectory: folder, console: captured)
  /// ```
  public static func run(
    arguments: [String], environment: [String: String], standardInput: OfflineStandardInput,
    workingDirectory: URL, console: any OfflineConsole
  ) async -> Int32 {
    let host = CommandHost(
      environment: environment, standardInput: standardInput,
      workingDirectory: workingDirectory, console: console, ownsProcess: false)
    let code = await dispatch(arguments, host: host, blanksProcessArguments: false)
    // Cancelled, the run ends as the executable does after SIGINT (its signal trap's code).
    return Task.isCancelled ? ExitCode.interrupted : code
  }

  private static func dispatch(
    _ arguments: [String], host: CommandHost, blanksProcessArguments: Bool
  ) async -> Int32 {
    let console = host.console
    let invocation: CommandParser.Invocation
    do {
      invocation = try CommandParser.parse(arguments, root: RootCommand.configuration, host: host)
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
        storeDirectory: StoreLocation.resolve(
          explicit: root.storePath, environment: host.environment,
          workingDirectory: host.workingDirectory),
        host: host)
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
