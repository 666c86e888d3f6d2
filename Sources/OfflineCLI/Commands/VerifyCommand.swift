import Foundation
import OfflineKit

/// `offline verify`: reads downloaded contents again and checks every file against what the
/// download recorded; with `--repair` mends what is wrong, with `--remote` asks the origin
/// whether the content changed there instead.
struct VerifyCommand: Command {
  static let ids: Argument<[String]> = .repeating(
    "id", help: "The ids of downloaded contents to check ('offline ls' lists them).",
    parser: .string)
  static let all: Option<Bool> = .flag("--all", help: "Check every downloaded content.")
  static let json: Option<Bool> = .flag(
    "--json", help: "Print a JSON array, one object per content (id, whole, problems).")
  static let repair: Option<Bool> = .flag(
    "--repair", help: "Fetch again only what is damaged (see 'offline repair').")
  static let remote: Option<Bool> = .flag(
    "--remote",
    help: "Ask the origin (HEAD, nothing downloaded) whether the content changed there since"
      + " the download, instead of reading the files.")

  static let configuration = CommandConfiguration(
    name: "verify",
    abstract: "Check that downloaded contents are whole: every file's length and SHA-256,"
      + " each 4 MiB chunk, each segment.",
    discussion: "Exits 0 when every content checked is whole (or up to date, with --remote),"
      + " 1 when something is damaged (or changed on the origin). Progress goes to standard"
      + " error when it is a terminal.",
    arguments: [ids], options: [all, json, repair, remote], command: Self.self)

  let ids: [String]
  let all: Bool
  let json: Bool
  let repairs: Bool
  let remote: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    ids = arguments[Self.ids]
    all = arguments[Self.all]
    json = arguments[Self.json]
    repairs = arguments[Self.repair]
    remote = arguments[Self.remote]
    guard all != !ids.isEmpty else {
      throw UsageError(all ? "Give ids or --all, not both." : "Missing ids (or --all).")
    }
    guard !(repairs && remote) else {
      throw UsageError("--repair and --remote do not go together.")
    }
  }

  func run(_ context: CommandContext) async -> Int32 {
    let console = context.console
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      var targets = ids
      if all {
        targets = try await manager.snapshots().filter { $0.state == .downloaded }.map(\.id)
      }
      var results: [VerifyOutput.Result] = []
      for id in targets {
        let result = try await check(
          try await manager.content(id: id), console: console)
        if !json { console.out(result.text) }
        results.append(result)
      }
      if json { console.out(VerifyOutput.json(results)) }
      return results.allSatisfy(\.isGood) ? ExitCode.success : ExitCode.failure
    }
  }

  private func check(_ content: OfflineContent, console: Console) async throws(OfflineError)
    -> VerifyOutput.Result
  {
    if remote {
      return VerifyOutput.Result(id: content.id, remote: try await content.checkRemote())
    }
    let progress = VerifyProgress(id: content.id, console: console)
    let report = try await content.verify(progress: progress?.update)
    progress?.clear()
    var result = VerifyOutput.Result(id: content.id, report: report)
    if repairs, !report.isWhole {
      result.repair = try await content.repair()
    }
    return result
  }
}
