import Foundation
import TestSupport
import Testing

@testable import OfflineKit

/// How the queue makes many small files durable (issue 14, small files at curl's speed).
@Suite(.serialized) struct QueueGroupCommitTests {
  /// Pins issue 14's per-file durability cost: each file of a queue was fsynced on its own,
  /// its folder fsynced after the rename, and its manifest and the manifest's folder fsynced
  /// too (four flushes a file). Files that finish near each other are now made durable
  /// together, by one sync of the file system before one transaction records them.
  @Test func aQueueOfSmallFilesIsMadeDurableWithFewerFlushesThanFiles() async throws {
    let count = 24
    var files: [String: Int] = [:]
    for index in 0..<count { files["f\(index).bin"] = 20 << 10 }
    let origin = try ManagerOrigin(files: files)
    let folder = try TemporaryDirectory(prefix: "offlinekit-group-commit")
    var configuration = ManagerFixture.configuration(parallelDownloads: 4)
    configuration.pollInterval = .seconds(1)
    let manager = try OfflineManager(
      directory: folder.url.appending(path: "store", directoryHint: .isDirectory),
      configuration: configuration)
    let sources = (0..<count).map {
      OfflineSource(url: origin.url("f\($0).bin"), id: "f\($0)")
    }

    let before = Durability.flushes
    let contents = try await manager.add(sources)
    #expect(try await runUntilIdle(manager, timeout: .seconds(60)))
    let flushes = Durability.flushes - before

    for (index, content) in contents.enumerated() {
      let snapshot = try await manager.snapshot(id: content.id)
      #expect(snapshot.state == .downloaded, "f\(index) is \(snapshot.state)")
      let path = try #require(try await content.offlineSource).path
      #expect(
        FileManager.default.contents(atPath: path) == origin.body("f\(index).bin"),
        "f\(index) differs")
    }
    #expect(flushes < count, "\(flushes) flushes for \(count) files")
    await manager.close()
  }
}
