import Foundation
import OfflineKit

/// The manager's events as Server-Sent Events: `event: <name>` and one line of JSON that
/// always carries the content's `id`.
///
/// | event | data |
/// |---|---|
/// | `content` | the content as `GET /api/contents/<id>` shows it, after every change (its state, `waitReason`, `lastError`) |
/// | `progress` | `bytes`, `total`, `totalIsEstimate`, `bytesPerSecond`, `secondsRemaining`, `fraction` |
/// | `finished` | the end of a download attempt: `ok`, then `path` (the local file) or `error` (a sentence) and `code` (`canceled` for a cancel) |
/// | `restarted` | `reason` (`rangesIgnored`, `resourceChanged`...): the download started over |
/// | `keysRenewed` | `count` |
/// | `forgotten` | `id` only |
enum EventText {
  /// The text of `event` of content `id`.
  static func render(_ event: OfflineContent.Event, id: String) -> String {
    switch event {
    case .changed(let snapshot):
      return self.event("content", ContentProjection(snapshot))
    case .progress(let progress):
      return self.event("progress", ProgressJSON(id: id, progress))
    case .restarted(let reason):
      return self.event("restarted", RestartJSON(id: id, reason: reason.rawValue))
    case .finished(.success(let url)):
      return self.event("finished", FinishedJSON(id: id, ok: true, path: url.path))
    case .finished(.failure(let error)):
      return self.event(
        "finished",
        FinishedJSON(id: id, ok: false, error: error.description, code: error.kindName))
    case .keysRenewed(let count):
      return self.event("keysRenewed", KeysJSON(id: id, count: count))
    }
  }

  /// `event: NAME` with `{"id": ID}`.
  static func plain(_ name: String, _ id: String) -> String {
    event(name, IDJSON(id: id))
  }

  /// `event: NAME` with `value` as one line of JSON.
  static func event<T: Encodable>(_ name: String, _ value: T) -> String {
    "event: \(name)\ndata: \(String(decoding: APIJSON.encode(value), as: UTF8.self))\n\n"
  }
}

private struct IDJSON: Encodable {
  var id: String
}

private struct FinishedJSON: Encodable {
  var id: String
  var ok: Bool
  var path: String?
  var error: String?
  var code: String?
}

private struct RestartJSON: Encodable {
  var id: String
  var reason: String
}

private struct KeysJSON: Encodable {
  var id: String
  var count: Int
}
