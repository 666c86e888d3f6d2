import Foundation
import OfflineStore

extension HLSPieceRunner {
  /// A piece journaled for an earlier URL of the stream (a refreshed token in the playlist's
  /// URL, its path or its query) goes on under the piece's new URL when it is the piece at
  /// the same position (the same local path, which the planner gives by position) and has
  /// the same remote file name: a complete piece is kept without a request, a partial one
  /// resumes with `If-Range` (``Transfer/carryOver(destination:to:journal:)``).
  static func carryOver(_ journal: TransferJournal, destination: String, to url: URL) {
    guard var entry = try? journal.record(forDestination: destination),
      entry.url != url.absoluteString, let old = URL(string: entry.url),
      old.lastPathComponent == url.lastPathComponent
    else { return }
    entry.url = url.absoluteString
    _ = try? journal.save(entry)
  }
}
