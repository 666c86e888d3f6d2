import Foundation
import OfflineKit

/// The manager's events as Server-Sent Events: `event: <name>` and one line of JSON that
/// always carries the content's `id`.
///
/// | event | data |
/// |---|---|
/// | `content` | the content as `GET /api/contents/<id>` shows it (after every state change) |
/// | `progress` | `bytes`, `total`, `totalIsEstimate`, `bytesPerSecond`, `secondsRemaining`, `fraction` |
/// | `waiting` | `reason` (`queued`, `network`, `storage`, `retry`, `starting`, or null: moving) |
/// | `finished`, `suspended`, `resumed`, `canceled` | `id` only |
/// | `error` | `error` (a sentence), `kind` |
/// | `keysRenewed` | `count` |
/// | `forgotten` | `id` only |
enum EventText {
  /// The text of `event` of content `id`; a state change is sent as a `content` event with
  /// `snapshot` (the content as it is now).
  static func render(_ event: OfflineContent.Event, id: String, snapshot: OfflineContent.Snapshot?)
    -> String
  {
    switch event {
    case .stateChanged:
      guard let snapshot else { return "" }
      return self.event("content", ContentProjection(snapshot))
    case .progress(let progress):
      return self.event("progress", ProgressJSON(id: id, progress))
    case .waiting(let reason):
      return self.event("waiting", WaitingJSON(id: id, reason: reason?.name))
    case .finished:
      return plain("finished", id)
        + (snapshot.map { self.event("content", ContentProjection($0)) } ?? "")
    case .suspended:
      return plain("suspended", id)
        + (snapshot.map { self.event("content", ContentProjection($0)) } ?? "")
    case .resumed:
      return plain("resumed", id)
    case .canceled:
      return plain("canceled", id)
        + (snapshot.map { self.event("content", ContentProjection($0)) } ?? "")
    case .error(let error):
      return self.event(
        "error", ErrorEventJSON(id: id, error: error.description, kind: error.kindName))
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

private struct WaitingJSON: Encodable {
  var id: String
  var reason: String?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(reason, forKey: .reason)  // null when moving again
  }

  enum CodingKeys: String, CodingKey { case id, reason }
}

private struct ErrorEventJSON: Encodable {
  var id: String
  var error: String
  var kind: String
}

private struct KeysJSON: Encodable {
  var id: String
  var count: Int
}
