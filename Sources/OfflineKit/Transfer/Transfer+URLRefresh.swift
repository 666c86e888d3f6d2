import Foundation
import OfflineStore

extension Transfer {
  /// Lets the unfinished download at `destination`, journaled for another URL, go on from
  /// `url` (the same resource at a refreshed, signed URL): the journal entry keeps its
  /// validators and offset and takes the new URL. The next run resumes with `Range` and
  /// `If-Range`, so the bytes are kept only when the new URL serves the same resource (the
  /// same strong `ETag`, or the same `Last-Modified` and length) and start over otherwise
  /// (`resourceChanged`, `lengthChanged`). A complete entry is left as it is.
  ///
  /// - Returns: Whether an entry was carried over.
  @discardableResult
  package static func carryOver(destination: String, to url: URL, journal: TransferJournal)
    -> Bool
  {
    carriedOver(try? journal.record(forDestination: destination), to: url, journal: journal)
      != nil
  }

  /// ``carryOver(destination:to:journal:)`` for an `entry` already read: the entry as saved
  /// under `url`, or nil when there was none to carry over or it could not be saved.
  static func carriedOver(_ entry: TransferRecord?, to url: URL, journal: TransferJournal)
    -> TransferRecord?
  {
    guard var entry, entry.url != url.absoluteString, entry.phase == .active else { return nil }
    entry.url = url.absoluteString
    return try? journal.save(entry)
  }
}
