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
    lastError = snapshot.lastError?.description
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
