import Foundation
import OfflineKit

/// A content as aria2's `tellStatus` shows a download: every number a string, as aria2
/// sends them.
enum AriaStatus {
  /// aria2's status word for a content: `active`, `waiting` (queued or waiting for the
  /// network, disk space or a retry), `paused`, `error` (suspended after a failure),
  /// `complete` or `removed`.
  static func word(_ snapshot: OfflineContent.Snapshot) -> String {
    switch snapshot.state {
    case .downloading:
      switch snapshot.waitReason {
      case nil, .starting?: return "active"
      default: return "waiting"
      }
    case .suspended: return snapshot.lastError == nil ? "paused" : "error"
    case .downloaded: return "complete"
    case .notDownloaded, .canceling: return "removed"
    }
  }

  /// The `tellStatus` structure, limited to `keys` when given.
  static func structure(_ snapshot: OfflineContent.Snapshot, speed: Double, keys: [String]?)
    -> [String: Any]
  {
    let total = snapshot.total ?? 0
    let speedText = String(Int64(speed.isFinite ? max(0, speed) : 0))
    var status: [String: Any] = [
      "gid": AriaGID.of(snapshot.id),
      "status": word(snapshot),
      "totalLength": String(total),
      "completedLength": String(snapshot.bytes),
      "uploadLength": "0",
      "downloadSpeed": word(snapshot) == "active" ? speedText : "0",
      "uploadSpeed": "0",
      "connections": word(snapshot) == "active" ? "1" : "0",
      "numPieces": "1",
      "pieceLength": String(max(total, 1)),
      "dir": snapshot.fileURL.deletingLastPathComponent().path,
      "files": [
        [
          "index": "1",
          "path": snapshot.fileURL.path,
          "length": String(total),
          "completedLength": String(snapshot.bytes),
          "selected": "true",
          "uris": [["uri": snapshot.url.absoluteString, "status": "used"]],
        ] as [String: Any]
      ],
      "offlineId": snapshot.id,
      "offlineState": snapshot.state.rawValue,
    ]
    if let error = snapshot.lastError, snapshot.state == .suspended {
      status["errorCode"] = "1"
      status["errorMessage"] = error.description
    }
    guard let keys, !keys.isEmpty else { return status }
    return status.filter { keys.contains($0.key) }
  }
}
