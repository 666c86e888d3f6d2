import Foundation
import OfflineStore

extension HLSPieceRunner {
  /// A piece journaled for an earlier URL of the stream (a refreshed token in the playlist's
  /// URL, its path or its query) goes on under the piece's new URL when it is the piece at
  /// the same position (the same local path, which the planner gives by position) and has
  /// the same remote file name: a complete piece is kept without a request, a partial one
  /// resumes with `If-Range` (``Transfer/carryOver(destination:to:journal:)``).
  ///
  /// `journaled` is what ``journaledURLs(_:under:)`` read for the folder when the run began:
  /// a piece it holds no other URL for needs no look-up (one query per run, not one per
  /// piece); nil (the read failed) looks the piece up.
  static func carryOver(
    _ journal: TransferJournal, destination: String, to url: URL, journaled: [String: String]?
  ) {
    if let journaled, (journaled[destination] ?? url.absoluteString) == url.absoluteString {
      return
    }
    guard var entry = try? journal.record(forDestination: destination),
      entry.url != url.absoluteString, let old = URL(string: entry.url),
      old.lastPathComponent == url.lastPathComponent
    else { return }
    entry.url = url.absoluteString
    _ = try? journal.save(entry)
  }

  /// The URL the journal holds for each destination inside `folder`, read in one query; nil
  /// when it cannot be read. The run holds the folder's lock, so no other writer changes
  /// these entries while it goes.
  static func journaledURLs(_ journal: TransferJournal, under folder: String) -> [String: String]? {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    guard
      let rows = try? journal.database.query(
        "SELECT destination, url FROM transfers WHERE substr(destination, 1, ?) = ?",
        [.integer(Int64(prefix.unicodeScalars.count)), .text(prefix)])
    else { return nil }
    var urls: [String: String] = [:]
    for row in rows {
      guard let destination = try? row.string("destination"), let url = try? row.string("url")
      else { return nil }
      urls[destination] = url
    }
    return urls
  }
}
