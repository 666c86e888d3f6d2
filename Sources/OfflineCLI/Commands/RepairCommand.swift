import Foundation
import OfflineKit

/// `offline repair`: fetches again only what is wrong with a downloaded content.
struct RepairCommand: Command {
  static let id: Argument<String> = .required(
    "id", help: "The content's id, as 'offline ls' lists it.", parser: .string)
  static let redownload: Option<Bool> = .flag(
    "--redownload",
    help: "Delete the content's files and download it again in full (when the origin changed).")

  static let configuration = CommandConfiguration(
    name: "repair",
    abstract: "Mend a damaged downloaded content, fetching only its damaged chunks or segments.",
    discussion: "Nothing changes when the origin changed since the download (then use"
      + " --redownload) or cannot be reached. A repair stopped at any point is finished by the"
      + " next one. Exits 0 when the content is whole, 1 otherwise.",
    arguments: [id], options: [redownload], command: Self.self)

  let id: String
  let redownload: Bool

  init(_ arguments: ParsedArguments) {
    id = arguments[Self.id]
    redownload = arguments[Self.redownload]
  }

  func run(_ context: CommandContext) async -> Int32 {
    let console = context.console
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      let content = try await manager.content(id: id)
      let report = try await content.repair(redownload: redownload)
      if report.outcome == .redownloadQueued {
        console.err("Downloading \(id) again...")
        try await manager.runUntilIdle()
        guard try await content.state == .downloaded else {
          console.err(
            "Error: \(try await content.snapshot.lastError?.description ?? "\(id) did not finish.")"
          )
          return ExitCode.failure
        }
        console.out("\(id): downloaded again")
        return ExitCode.success
      }
      console.out(VerifyOutput.Result.text(of: report, id: id))
      // What was mended, named as `verify` names it (a pack's segments by playlist position).
      for problem in report.damage?.problems ?? [] {
        console.out("  fixed: " + TerminalText.escaped(problem.description))
      }
      return ExitCode.success
    }
  }
}
