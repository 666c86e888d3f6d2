import Foundation
import OfflineHTTP
import OfflineKit

/// What each source of a file served, in lines for people (`get`'s end, `ls`, `info`):
/// its bytes, its URL (secrets redacted, escaped for the terminal), its content steering
/// pathway when it is one, bad pieces fetched again elsewhere, and why it was dropped.
enum SourceLines {
  /// One line per source in `reports`, in their order.
  static func lines(_ reports: [Transfer.SourceReport]) -> [String] {
    reports.map { source in
      var line =
        "\(ByteCount.format(source.bytes)) from "
        + TerminalText.escaped(source.url.redactedForDisplay)
        + (source.isPrimary ? " (the URL)" : "")
        + (source.pathway.map { " (pathway " + TerminalText.escaped($0) + ")" } ?? "")
      if source.badPieces > 0 {
        line += ", \(source.badPieces) bad piece\(source.badPieces == 1 ? "" : "s") fetched again"
      }
      if let dropped = source.dropped {
        line += "; dropped: " + TerminalText.message(dropped)
      }
      return line
    }
  }
}
