import Foundation
import OfflineKit

/// `offline ls`: every content of the store with its state and progress.
struct ListCommand: Command {
  static let json: Option<Bool> = .flag(
    "--json",
    help: "Print a JSON array of objects (id, url, title, state, bytes, total, path, reason,"
      + " lastError).")
  static let rebuild: Option<Bool> = .flag(
    "--rebuild",
    help: "First put back the contents whose folders hold a manifest the index lacks (done by"
      + " itself when the index is found damaged); what was restored or skipped goes to"
      + " standard error.")

  static let configuration = CommandConfiguration(
    name: "ls",
    abstract: "List the store's contents: id, state, progress, why it waits, title and URL.",
    options: [json, rebuild], command: Self.self)

  let json: Bool
  let rebuild: Bool

  init(_ arguments: ParsedArguments) {
    json = arguments[Self.json]
    rebuild = arguments[Self.rebuild]
  }

  func run(_ context: CommandContext) async -> Int32 {
    let console = context.console
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      if rebuild { Self.report(try await manager.rebuildFromManifests(), console) }
      let snapshots = try await manager.snapshots()
      console.out(json ? Self.jsonText(snapshots) : Self.table(snapshots))
      return ExitCode.success
    }
  }

  /// What `--rebuild` did, on standard error.
  static func report(_ rebuilt: RebuildReport, _ console: Console) {
    console.err("Restored \(rebuilt.restored.count) contents from their manifests.")
    for item in rebuilt.restored {
      console.err("  \(item.id): \(item.state.rawValue)" + (item.note.map { " (\($0))" } ?? ""))
    }
    for item in rebuilt.skipped { console.err("  skipped \(item.path): \(item.reason)") }
  }

  /// `ls --json`: every content's ``ContentProjection``, the object the service's API
  /// shows too.
  static func jsonText(_ snapshots: [OfflineContent.Snapshot]) -> String {
    String(decoding: ContentProjection.json(snapshots), as: UTF8.self)
  }

  static func table(_ snapshots: [OfflineContent.Snapshot]) -> String {
    var lines = [row("ID", "STATE", "PROGRESS", "REASON", "TITLE / URL")]
    for item in snapshots {
      var progress = ByteCount.format(item.bytes)
      if let total = item.total { progress += " / " + ByteCount.format(total) }
      let reason =
        item.state == .downloading
        ? (item.waitReason?.name ?? "running") : item.damage == nil ? "" : "damaged"
      // Titles, URLs and errors may come from a server: escaped and cut for the terminal.
      let name = item.title.map(TerminalText.escaped) ?? TerminalText.shortened(url: item.url)
      lines.append(row(item.id, item.state.rawValue, progress, reason, name))
      if let error = item.lastError, item.state != .downloaded {
        lines.append("    last error: \(TerminalText.message("\(error)"))")
      }
      if let damage = item.damage {
        lines.append("    damaged: \(TerminalText.message(damage.description))")
      }
      if let live = item.live { lines.append("    " + LiveSummaryText.line(live)) }
      lines += SourceLines.lines(item.sources ?? []).map { "    source: " + $0 }
    }
    return lines.joined(separator: "\n")
  }

  private static func row(_ columns: String...) -> String {
    let widths = [10, 14, 24, 9]
    var line = ""
    for (index, column) in columns.enumerated() {
      line +=
        index < widths.count
        ? column.padding(toLength: widths[index], withPad: " ", startingAt: 0) + " " : column
    }
    return line
  }
}
