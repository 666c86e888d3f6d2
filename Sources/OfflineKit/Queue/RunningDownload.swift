import Foundation
import OfflineHTTP
import OfflineStore

/// A download the runner is carrying out.
struct RunningDownload {
  let task: Task<Void, Never>
  let host: String
  /// Bytes on disk when the transfer started, from its first progress report.
  var startBytes: Int64?
  /// Bytes on disk at its latest progress report.
  var lastBytes: Int64 = 0
  /// When its progress was last written to the index (the manager clock's instant).
  var lastSaved: ContinuousClock.Instant
  /// Whether its file is synced later with others (``GroupCommit``) rather than by its
  /// transfer.
  var syncsLater = false
  /// Whether subscribers were told it waited (network, storage, a retry) before it
  /// started, so they are told when it moves again; a plain start is no news.
  var announcesMoving = false

  /// Whether bytes arrived during this attempt (a retry budget starts over then).
  var progressed: Bool { lastBytes > (startBytes ?? lastBytes) }
}
