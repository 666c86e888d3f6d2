import Foundation
import OfflineHTTP
import OfflineKit

extension InfoCommand {
  /// `offline info ID`: the content's state, where it is and, for a live recording, what it
  /// holds (``LiveRecordingSummary``); `--json` prints its ``ContentProjection``, the object
  /// `ls --json` lists.
  func showContent(_ id: String, _ context: CommandContext) async -> Int32 {
    let console = context.console
    let json = self.json
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      let snapshot = try await manager.content(id: id).snapshot
      console.out(json ? Self.jsonText(snapshot) : Self.text(snapshot))
      return ExitCode.success
    }
  }

  /// The projection of `snapshot` as one JSON object, keys sorted.
  static func jsonText(_ snapshot: OfflineContent.Snapshot) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(ContentProjection(snapshot))) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// The content in lines for people; what a server may have sent is escaped.
  static func text(_ snapshot: OfflineContent.Snapshot) -> String {
    var lines = ["ID: \(snapshot.id)", "State: \(snapshot.state.rawValue)"]
    if let title = snapshot.title { lines.append("Title: " + TerminalText.escaped(title)) }
    lines.append("URL: " + TerminalText.escaped(snapshot.url.redactedForDisplay))
    lines.append("Path: " + TerminalText.escaped(snapshot.fileURL.path))
    var progress = ByteCount.format(snapshot.bytes)
    if let total = snapshot.total { progress += " / " + ByteCount.format(total) }
    lines.append("Bytes: " + progress)
    if let error = snapshot.lastError, snapshot.state != .downloaded {
      lines.append("Last error: " + TerminalText.message("\(error)"))
    }
    if let damage = snapshot.damage {
      lines.append("Damaged: " + TerminalText.message(damage.description))
    }
    if let live = snapshot.live { lines += LiveSummaryText.lines(live) }
    lines += SourceLines.lines(snapshot.sources ?? []).map { "Source: " + $0 }
    return lines.joined(separator: "\n")
  }
}
