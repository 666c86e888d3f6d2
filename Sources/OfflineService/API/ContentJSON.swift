import Foundation
import OfflineKit

/// A content as the JSON API shows it: its snapshot, the actions its state allows, and
/// where a player finds it once downloaded.
struct ContentJSON: Encodable, Sendable {
  var id: String
  var url: String
  var title: String?
  var state: String
  var bytes: Int64
  var total: Int64?
  var totalIsEstimate: Bool
  var waitReason: String?
  var lastError: String?
  var priority: Int
  /// What the API accepts in this state: `pause`, `resume`, `cancel`, `delete`,
  /// `download`, `forget`.
  var actions: [String]
  /// `/content/<id>/<file>` once downloaded.
  var contentPath: String?
  /// What the quick check on open found wrong with a downloaded content's files, in words.
  var damage: String?

  init(_ snapshot: OfflineContent.Snapshot) {
    id = snapshot.id
    url = snapshot.url.absoluteString
    title = snapshot.title
    state = snapshot.state.rawValue
    bytes = snapshot.bytes
    total = snapshot.total
    totalIsEstimate = snapshot.totalIsEstimate
    waitReason = snapshot.waitReason?.name
    lastError = snapshot.lastError
    priority = snapshot.priority
    actions = APIAction.allowed(in: snapshot.state).map(\.rawValue)
    damage = snapshot.damage?.description
    if snapshot.state == .downloaded {
      let name = snapshot.fileURL.lastPathComponent
      contentPath =
        "/content/\(snapshot.id)/"
        + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
    }
  }
}

/// The actions of the JSON API, in the words of the CLI, and the library calls behind them.
enum APIAction: String, CaseIterable, Sendable {
  case pause, resume, cancel, delete, download, forget

  /// The state machine's action (forget is not one: it removes a `notDownloaded` content).
  var action: OfflineAction? {
    switch self {
    case .pause: .suspend
    case .resume: .resume
    case .cancel: .cancel
    case .delete: .delete
    case .download: .download
    case .forget: nil
    }
  }

  /// The actions the state table allows in `state`.
  static func allowed(in state: OfflineState) -> [APIAction] {
    allCases.filter { action in
      guard let step = action.action else { return state == .notDownloaded }
      return (try? OfflineStateMachine.state(after: step, from: state)) != nil
    }
  }
}

/// Encodes API values: sorted keys, so answers are stable.
enum APIJSON {
  static func encode<T: Encodable>(_ value: T) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)) ?? Data("null".utf8)
  }

  /// An error answer: `{"error": sentence, "kind": name, "state": state}`.
  static func error(_ status: Int, _ message: String, kind: String, state: OfflineState? = nil)
    -> HTTPResponse
  {
    .json(status, encode(APIErrorJSON(error: message, kind: kind, state: state?.rawValue)))
  }
}

/// The body of an error answer.
struct APIErrorJSON: Encodable {
  var error: String
  var kind: String
  var state: String?
}
