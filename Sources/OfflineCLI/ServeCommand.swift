import Foundation
import OfflineKit
import OfflineService

/// `offline serve`: work the queue and serve it over HTTP (the JSON API, events, the web
/// page, content for players). A thin layer: the service lives in `OfflineService`.
struct ServeCommand: Sendable {
  static let usage =
    "offline [--store <dir>] serve [--listen <addr:port>] [--token <token>]"
    + " [--allow-host <name>]... [--parallel <n>] [--min-free <size>]"

  static let help = HelpText(
    overview: "Work the queue and serve it over HTTP to browsers, players and programs.",
    usage: usage,
    arguments: [],
    options: [
      (
        "--listen <addr:port>",
        "The numeric address and port to listen on (default 127.0.0.1:8380). Any address"
          + " but a loopback one requires a token."
      ),
      (
        "--token <token>",
        "The token every request must show (16 to 128 letters, digits, '-' or '_');"
          + " generated and printed when another machine could connect and none is given."
      ),
      ("--allow-host <name>", "A host name the service also answers to (repeatable)."),
      ("--parallel <n>", "Downloads at once (default 3)."),
      ("--min-free <size>", "Free space to keep on the disk (default 64M), as for 'run'."),
      ("-h, --help", "Show help information."),
    ],
    footer: """
      Prints the URL to open, with the token when there is one: opening it once sets a
      cookie in the browser. Programs send 'Authorization: Bearer TOKEN'. Only one process
      works a store's queue: 'serve' and 'run' refuse to start while the other runs.
      SIGINT (Ctrl-C) or SIGTERM suspends what is running and exits 130 (143).
      """)

  var configuration = OfflineService.Configuration()
  var parallel = 3
  var minimumFreeSpace: Int64 = 64 << 20
  var showHelp = false

  static func parse(_ arguments: [String]) throws(UsageError) -> ServeCommand {
    var scanner = ArgumentScanner(arguments, usage: usage)
    var command = ServeCommand()
    while let item = scanner.next() {
      switch item {
      case .positional(let text):
        throw UsageError(message: "Unexpected argument '\(text)'.", usage: usage)
      case .option(let name, let inline):
        let fail = { (message: String) in UsageError(message: message, usage: usage) }
        switch name {
        case "--listen":
          guard let address = ListenAddress(parsing: try scanner.value(for: name, inline: inline))
          else {
            throw fail("--listen takes a numeric address and a port, such as 127.0.0.1:8380.")
          }
          command.configuration.address = address
        case "--token":
          let token = try scanner.value(for: name, inline: inline)
          guard ServiceToken.isValid(token) else {
            throw fail("--token takes 16 to 128 letters, digits, '-' or '_'.")
          }
          command.configuration.token = token
        case "--allow-host":
          command.configuration.allowedNames.append(try scanner.value(for: name, inline: inline))
        case "--parallel":
          guard let value = Int(try scanner.value(for: name, inline: inline)), value > 0 else {
            throw fail("--parallel takes a whole number above 0.")
          }
          command.parallel = value
        case "--min-free":
          guard let size = ByteSize.parse(try scanner.value(for: name, inline: inline)) else {
            throw fail("--min-free takes a size, such as 0, 512K, 100M or 1G.")
          }
          command.minimumFreeSpace = size
        case "-h", "--help":
          command.showHelp = true
          return command
        default: throw scanner.unknown(name)
        }
      }
    }
    if !command.configuration.address.isLoopback && command.configuration.token == nil {
      command.configuration.token = ServiceToken.generate()
    }
    return command
  }

  static func run(_ command: ServeCommand, context: CommandContext) async -> Int32 {
    let console = context.console
    if command.showHelp {
      console.out(help.render())
      return ExitCode.success
    }
    let manager: OfflineManager
    do throws(OfflineError) {
      manager = try ManagerAccess.open(
        context, parallel: command.parallel, minimumFreeSpace: command.minimumFreeSpace)
      try await manager.start()
    } catch {
      return ManagerAccess.fail(error, console)
    }
    let service: OfflineService
    do throws(OfflineServiceError) {
      service = try OfflineService(manager: manager, configuration: command.configuration)
    } catch {
      await manager.stop(suspendingRunning: true)
      console.err("Error: \(error)")
      return ExitCode.failure
    }
    console.out("Serving \(context.storeDirectory.path) on \(service.browserURL.absoluteString)")
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(200))
    }
    service.stop()
    await manager.stop(suspendingRunning: true)
    return ExitCode.failure
  }
}
