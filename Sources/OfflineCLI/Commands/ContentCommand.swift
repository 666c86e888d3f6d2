import Foundation
import OfflineKit

/// The commands that act on one content by id: `pause`, `resume`, `cancel`, `rm`,
/// `download`, `forget`, `path` and `renew-keys`. One type serves them all; each has its own
/// declaration, named for its verb.
struct ContentCommand: Command {
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
  }

  static let id: Argument<String> = .required(
    "id", help: "The content's id, as 'offline add' printed it or 'offline ls' lists it.",
    parser: .string)

  /// One declaration per verb.
  static let configurations = Verb.allCases.map { verb in
    CommandConfiguration(
      name: verb.rawValue, abstract: verb.abstract,
      discussion: "A call the content's state does not allow exits 1 and names the state.",
      arguments: [id], command: Self.self)
  }

  let verb: Verb
  let id: String

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let verb = Verb(rawValue: arguments.commandName) else {
      throw UsageError("Unknown subcommand '\(arguments.commandName)'.")
    }
    self.verb = verb
    id = arguments[Self.id]
  }

  func run(_ context: CommandContext) async -> Int32 {
    let command = self
    let console = context.console
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      let content = try await manager.content(id: command.id)
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
        try await Self.waitWhileCanceling(content, console: console)
      case .path:
        let snapshot = try await content.snapshot
        guard snapshot.state == .downloaded else {
          console.err(
            "Error: Cannot print the path of content \(command.id): it is \(snapshot.state.phrase)."
          )
          return ExitCode.failure
        }
        console.out(try await content.playbackURL().path)
      }
      return ExitCode.success
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
