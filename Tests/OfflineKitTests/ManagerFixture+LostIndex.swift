import Foundation
import OfflineHTTP
import TestSupport
import Testing

@testable import OfflineKit

extension ManagerFixture {
  /// A store whose index was lost after a first manager worked on it, and the manager
  /// opened after the loss (which rebuilds the index from the contents' manifests).
  struct LostIndex {
    let folder: TemporaryDirectory
    let store: URL
    /// The manager opened after the loss.
    let manager: OfflineManager
  }

  /// Runs `firstRun` with a manager on a new store; once that manager is gone (its
  /// connection closed, or closing it later would write the index back), overwrites the
  /// index with garbage made from `seed` and opens the next manager on the store. Both
  /// managers fetch through `transport` (nil: the platform's).
  static func losingTheIndex(
    seed: UInt64, transport: (any HTTPTransporting)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    after firstRun: (_ manager: OfflineManager, _ store: URL) async throws -> Void
  ) async throws -> LostIndex {
    let folder = try TemporaryDirectory(prefix: "offlinekit-manager")
    let store = folder.url.appending(path: "store", directoryHint: .isDirectory)
    weak var first: OfflineManager?
    do {
      let manager = try OfflineManager(
        directory: store, configuration: configuration(transport: transport))
      first = manager
      try await firstRun(manager, store)
    }
    #expect(await eventually { first == nil }, sourceLocation: sourceLocation)
    try destroyIndex(of: store, seed: seed)
    let manager = try OfflineManager(
      directory: store, configuration: configuration(transport: transport))
    return LostIndex(folder: folder, store: store, manager: manager)
  }
}
