import Foundation
import OfflineStore

extension PieceRunner {
  /// A piece journaled for an earlier URL of the stream (a refreshed token in the playlist's
  /// URL, its path or its query) goes on under the piece's new URL when it is the piece at
  /// the same position (the same local path, which the planner gives by position) and has
  /// the same remote file name: a complete piece is kept without a request, a partial one
  /// resumes with `If-Range` (``Transfer/carryOver(destination:to:journal:)``).
  ///
  /// `journaled` is what ``journaledRecords(_:under:)`` read for the folder when the run
  /// began: a piece it holds no other URL for needs no look-up (one query per run, not one
  /// per piece); nil (the read failed) looks the piece up.
  ///
  /// A piece journaled under one of its `alternates` (the piece's URL at another source of
  /// the stream, see ``StreamFailover``) goes on under `url` in the same way.
  ///
  /// - Returns: The record as it is now, carried over or not; nil when there is none.
  @discardableResult
  static func carryOver(
    _ journal: TransferJournal, destination: String, to url: URL,
    journaled: [String: TransferRecord]?, alternates: [URL] = []
  ) -> TransferRecord? {
    if let journaled {
      guard let entry = journaled[destination] else { return nil }
      if entry.url == url.absoluteString { return entry }
    }
    guard var entry = try? journal.record(forDestination: destination) else { return nil }
    guard entry.url != url.absoluteString, let old = URL(string: entry.url),
      old.lastPathComponent == url.lastPathComponent || alternates.contains(old)
    else { return entry }
    entry.url = url.absoluteString
    _ = try? journal.save(entry)
    return entry
  }

  /// The journal's record of each destination inside `folder`, read in one query; nil when
  /// it cannot be read. The run holds the folder's lock, so no other writer changes these
  /// entries while it goes.
  static func journaledRecords(_ journal: TransferJournal, under folder: String)
    -> [String: TransferRecord]?
  {
    try? journal.records(under: folder)
  }
}
