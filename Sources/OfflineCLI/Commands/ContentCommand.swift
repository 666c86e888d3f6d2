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
      case .path:
        "Print the path a player opens: a downloaded content's file (index.m3u8 for a stream),"
          + " or the growing playlist of a stream that is downloading or paused."
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
        return try await Self.printPath(of: content, console: console)
      }
      return ExitCode.success
    }
  }

  /// Prints where a player opens `content`; a stream on its way is said to grow on stderr.
  private static func printPath(of content: OfflineContent, console: Console)
    async throws(OfflineError) -> Int32
  {
    let url: URL
    do {
      url = try await content.playbackURL()
    } catch  where error.code == .notPlayable {
      let state = error.state.map { " it is \($0.phrase)" } ?? ""
      console.err("Error: Cannot print the path of content \(content.id):\(state).")
      return ExitCode.failure
    }
    if try await content.state != .downloaded {
      console.err(
        "Content \(content.id) is not all on disk: this playlist lists what is and grows while"
          + " it downloads (ffmpeg and mpv: -live_start_index 0 to play from its start).")
    }
    console.out(url.path)
    return ExitCode.success
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
