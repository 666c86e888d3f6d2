import OfflineKit

/// The contents as one JSON-RPC request (a call or a batch) sees them: listed at most once
/// until a call changes something, and a GID found through that listing, so a batch of
/// calls naming GIDs does not list every content (each with its quick check) once per call.
/// Used by one request, one call at a time.
final class AriaLookup {
  private let manager: OfflineManager
  private var listed: [OfflineContent.Snapshot]?
  private var idsByGID: [String: String]?

  init(manager: OfflineManager) {
    self.manager = manager
  }

  /// Every content in queue order, as listed once for this request (or since the last
  /// change).
  func all() async throws -> [OfflineContent.Snapshot] {
    if let listed { return listed }
    let snapshots = try await manager.snapshots()
    listed = snapshots
    return snapshots
  }

  /// The id of the content whose GID is `gid`, or nil. The ids are taken from one listing:
  /// ids change only when a content is added or forgotten, which ``changed(adding:)`` notes.
  func id(of gid: String) async throws -> String? {
    if idsByGID == nil {
      idsByGID = Dictionary(
        try await all().map { (AriaGID.of($0.id), $0.id) }, uniquingKeysWith: { first, _ in first })
    }
    return idsByGID?[gid]
  }

  /// A call changed states (and perhaps added content `adding`): the next listing is read
  /// again.
  func changed(adding id: String? = nil) {
    listed = nil
    if let id { idsByGID?[AriaGID.of(id)] = id }
  }
}
