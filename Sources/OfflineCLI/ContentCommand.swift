import Foundation
import OfflineKit

/// The commands that act on one content by id: `pause`, `resume`, `cancel`, `rm`,
/// `download`, `forget` and `path`.
struct ContentCommand: Sendable {
  enum Verb: String, CaseIterable, Sendable {
    case pause, resume, cancel, rm, download, forget, path
    case renewKeys = "renew-keys"

    var abstract: String {
      switch self {
      case .pause: "Pause a download, keeping its partial data (downloading -> suspended)."
      case .resume: "Resume a paused download (suspended -> downloading)."
      case .cancel: "Stop a download and delete its partial data (-> notDownloaded)."
      case .rm: "Delete a downloaded content's file (downloaded -> notDownloaded)."
      case .download: "Queue a content that is not downloaded (notDownloaded -> downloading)."
      case .forget: "Remove a content that is not downloaded from the store."
      case .path: "Print the path of a downloaded content's file (index.m3u8 for a stream)."
      case .renewKeys: "Fetch a downloaded stream's keys again, without its segments."
      }
    }

    var help: HelpText {
      HelpText(
        overview: abstract, usage: "offline [--store <dir>] \(rawValue) <id>",
        arguments: [
          ("<id>", "The content's id, as 'offline add' printed it or 'offline ls' lists it.")
        ],
        options: [("-h, --help", "Show help information.")],
        footer: "A call the content's state does not allow exits 1 and names the state.")
    }
  }

  var verb: Verb
  var id = ""
  var showHelp = false

  static func parse(_ verb: Verb, _ arguments: [String]) throws(UsageError) -> ContentCommand {
    let usage = verb.help.usage
    var scanner = ArgumentScanner(arguments, usage: usage)
    var command = ContentCommand(verb: verb)
    while let item = scanner.next() {
      switch item {
      case .positional(let text):
        guard command.id.isEmpty else {
          throw UsageError(message: "Unexpected argument '\(text)'.", usage: usage)
        }
        command.id = text
      case .option(let name, _):
        guard name == "-h" || name == "--help" else { throw scanner.unknown(name) }
        command.showHelp = true
        return command
      }
    }
    guard !command.id.isEmpty else { throw UsageError(message: "Missing id.", usage: usage) }
    return command
  }

  static func run(_ command: ContentCommand, context: CommandContext) async -> Int32 {
    let console = context.console
    if command.showHelp {
      console.out(command.verb.help.render())
      return ExitCode.success
    }
    do throws(OfflineError) {
      let manager = try ManagerAccess.open(context)
      guard let content = try await manager.content(id: command.id) else {
        throw OfflineError(.unknownContent(command.id), contentID: command.id)
      }
      switch command.verb {
      case .pause: try await content.suspend()
      case .resume: try await content.resume()
      case .download: try await content.download()
      case .rm: try await content.deleteOfflineData()
      case .forget: try await manager.forget(id: command.id)
      case .renewKeys:
        let count = try await content.renewKeys()
        console.err("Renewed \(count) key\(count == 1 ? "" : "s") of \(command.id).")
      case .cancel:
        try await content.cancel()
        try await waitWhileCanceling(content, console: console)
      case .path:
        let snapshot = try await content.snapshot
        guard snapshot.state == .downloaded else {
          console.err(
            "Error: Cannot print the path of content \(command.id): it is \(snapshot.state.phrase)."
          )
          return ExitCode.failure
        }
        console.out((try await content.offlineSource ?? snapshot.fileURL).path)
      }
      return ExitCode.success
    } catch {
      return ManagerAccess.fail(error, console)
    }
  }

  /// A cancel while `offline run` works the queue is finished by that runner: wait for it
  /// (bounded), so the command returns when the partial data is gone.
  private static func waitWhileCanceling(_ content: OfflineContent, console: Console)
    async throws(OfflineError)
  {
    for _ in 0..<50 where try await content.state == .canceling {
      try? await Task.sleep(for: .milliseconds(100))
    }
    if try await content.state == .canceling {
      console.err("Canceling; the running 'offline run' deletes the partial data.")
    }
  }
}
