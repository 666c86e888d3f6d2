import Foundation
import OfflineHTTP
import OfflineStore
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
    // A task of the first manager may outlive it for a moment with the index open; its last
    // checkpoint would write a valid database over the garbage (the rebuilt store then held
    // nothing restored, once under load).
    #expect(
      await eventually { !indexIsOpen(in: store) }, "the first manager's index stayed open",
      sourceLocation: sourceLocation)
    try destroyIndex(of: store, seed: seed)
    let manager = try OfflineManager(
      directory: store, configuration: configuration(transport: transport))
    return LostIndex(folder: folder, store: store, manager: manager)
  }

  /// Whether a descriptor of this process is open on the index of `store` or its WAL files
  /// (read from `/proc/self/fd`).
  static func indexIsOpen(in store: URL) -> Bool {
    let index = store.appending(path: OfflineIndex.fileName).resolvingSymlinksInPath().path
    let folder = "/proc/self/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.contains { name in
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)
      return target?.hasPrefix(index) ?? false
    }
  }
}
