import Foundation
import OfflineKit
import OfflineLocks

/// `offline run`: work the queue until nothing is left to do.
struct RunCommand: Sendable {
  static let usage = "offline [--store <dir>] run [--parallel <n>] [--min-free <size>] [--quiet]"

  static let help = HelpText(
    overview: "Download the queued contents until nothing is left to do.",
    usage: usage,
    arguments: [],
    options: [
      ("--parallel <n>", "Downloads at once (default 3)."),
      (
        "--min-free <size>",
        "Free space to keep on the disk, such as 0, 512K, 100M or 1G (default 64M). A"
          + " download waits until its bytes fit with this much left; one that cannot fit"
          + " even on the empty disk is suspended with the bytes it needs."
      ),
      ("-q, --quiet", "Print nothing but errors."),
      ("-h, --help", "Show help information."),
    ],
    footer: """
      Contents waiting for the network, for disk space or for a retry count as left to do.
      'pause', 'resume', 'cancel', 'add' and 'rm' given in another terminal take effect
      within a second. SIGINT (Ctrl-C) or SIGTERM suspends what is running, keeping its
      partial data, and exits 130 (143); 'offline resume ID' queues it again.
      """)

  var parallel = 3
  var minimumFreeSpace: Int64 = 64 << 20
  var quiet = false
  var showHelp = false

  static func parse(_ arguments: [String]) throws(UsageError) -> RunCommand {
    var scanner = ArgumentScanner(arguments, usage: usage)
    var command = RunCommand()
    while let item = scanner.next() {
      switch item {
      case .positional(let text):
        throw UsageError(message: "Unexpected argument '\(text)'.", usage: usage)
      case .option(let name, let inline):
        switch name {
        case "--parallel":
          guard let value = Int(try scanner.value(for: name, inline: inline)), value > 0 else {
            throw UsageError(message: "--parallel takes a whole number above 0.", usage: usage)
          }
          command.parallel = value
        case "--min-free":
          guard let size = ByteSize.parse(try scanner.value(for: name, inline: inline)) else {
            throw UsageError(
              message: "--min-free takes a size, such as 0, 512K, 100M or 1G.", usage: usage)
          }
          command.minimumFreeSpace = size
        case "-q", "--quiet": command.quiet = true
        case "-h", "--help":
          command.showHelp = true
          return command
        default: throw scanner.unknown(name)
        }
      }
    }
    return command
  }

  static func run(_ command: RunCommand, context: CommandContext) async -> Int32 {
    let console = context.console
    if command.showHelp {
      console.out(help.render())
      return ExitCode.success
    }
    do throws(OfflineError) {
      let manager = try ManagerAccess.open(
        context, parallel: command.parallel, minimumFreeSpace: command.minimumFreeSpace)
      let earlier = try await failures(of: manager)
      let printed = Locked<Set<String>>([])
      let printer =
        command.quiet ? nil : Task { await printEvents(of: manager, console, printed: printed) }
      defer { printer?.cancel() }
      try await manager.runUntilIdle()
      if Task.isCancelled {
        await manager.stop(suspendingRunning: true)
        return ExitCode.failure
      }
      await manager.stop(suspendingRunning: false)
      let failed = try await failures(of: manager)
      if !command.quiet {
        // A content can fail before the printer has subscribed, or just before the run
        // ends: say what it did not.
        let shown = printed.withLock { $0 }
        for (id, error) in failed.sorted(by: { $0.key < $1.key })
        where earlier[id] != error && !shown.contains(id) {
          console.err("\(id): \(error)")
        }
      }
      return failed.isEmpty ? ExitCode.success : ExitCode.failure
    } catch {
      return ManagerAccess.fail(error, console)
    }
  }

  /// Prints what happens to each content: a wait once per reason (the runner looks again
  /// and again while a content waits, but only a new reason is news).
  /// The contents that ended with an error, with it: suspended (data kept), or not
  /// downloaded (a failure that threw the bytes away, such as a checksum mismatch).
  private static func failures(of manager: OfflineManager) async throws(OfflineError)
    -> [String: String]
  {
    var result: [String: String] = [:]
    for snapshot in try await manager.snapshots()
    where snapshot.state == .suspended || snapshot.state == .notDownloaded {
      if let error = snapshot.lastError { result[snapshot.id] = error }
    }
    return result
  }

  private static func printEvents(
    of manager: OfflineManager, _ console: Console, printed: Locked<Set<String>>
  ) async {
    var lastWait: [String: String] = [:]
    for await (id, event) in manager.allEvents() {
      switch event {
      case .waiting, .progress: break
      default: lastWait[id] = nil  // a new state: the next wait is news again
      }
      switch event {
      case .finished:
        let path = (try? await manager.snapshot(id: id))?.fileURL.path ?? ""
        console.err("\(id): finished \(path)")
      case .error(let error):
        printed.withLock { _ = $0.insert(id) }
        console.err("\(id): \(error)")
      case .waiting(let reason?):
        guard lastWait[id] != reason.name, reason != .starting else { break }
        lastWait[id] = reason.name
        console.err("\(id): waiting (\(reason.name))")
      case .suspended:
        console.err("\(id): suspended")
      case .canceled:
        console.err("\(id): canceled")
      default:
        break
      }
    }
  }
}
