import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A damaged or locked index gives a clear error or a fresh index, never a crash, and never
/// costs a downloaded file.
@Suite(.timed) struct DamagedIndexTests {
  @Test func aTruncatedIndexIsMovedAsideAndTheFilesStay() async throws {
    let store = try TemporaryDirectory()
    do {
      let manager = try OfflineManager(directory: store.url)
      let sources = (0..<200).map {
        OfflineSource(url: URL(string: "http://127.0.0.1:9/f\($0).bin")!, title: "item \($0)")
      }
      _ = try await manager.contents(for: sources)
    }
    let kept = store.url.appending(path: "content/kept/movie.mp4")
    try FileManager.default.createDirectory(
      at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("a downloaded file".utf8).write(to: kept)
    let index = store.url.appending(path: OfflineIndex.fileName)
    let size = try FileManager.default.attributesOfItem(atPath: index.path)[.size] as! Int
    let handle = try FileHandle(forWritingTo: index)
    try handle.truncate(atOffset: UInt64(size / 2))
    try handle.close()
    try? FileManager.default.removeItem(atPath: index.path + "-wal")

    let reopened = try OfflineManager(directory: store.url)

    let moved = try #require(reopened.quarantinedIndex)
    #expect(FileManager.default.fileExists(atPath: moved.path))
    #expect(try await reopened.snapshots().isEmpty)
    #expect(FileManager.default.contents(atPath: kept.path) == Data("a downloaded file".utf8))
  }

  /// In WAL mode a writer's lock does not stop readers: the store opens and lists; a change
  /// waits for the lock (5 s), then fails with an error that says so.
  @Test func anIndexLockedByAnotherWriterStillReadsAndRefusesChangesClearly() async throws {
    let store = try TemporaryDirectory()
    _ = try OfflineManager(directory: store.url)
    let locker = try Database(path: store.url.appending(path: OfflineIndex.fileName).path)
    try locker.execute("BEGIN EXCLUSIVE")
    try locker.execute(
      "INSERT INTO schema_migrations (name, applied_at) VALUES ('lock-holder', 0)")
    defer { try? locker.execute("ROLLBACK") }

    let manager = try OfflineManager(directory: store.url)
    #expect(try await manager.snapshots().isEmpty)
    do {
      _ = try await manager.content(for: OfflineSource(url: URL(string: "http://127.0.0.1:9/a")!))
      Issue.record("changed an index another connection holds exclusively")
    } catch {
      guard case .index(let storeError) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(storeError.kind == .busy)
      #expect(error.description.contains("lock"), "\(error)")
    }
  }
}
