import Foundation
import TestSupport
import Testing

@testable import OfflineKit

/// Files on nginx and a manager of their own with a chosen parallelism and poll interval:
/// the setup of the tests that measure what a whole queue costs.
struct QueueCostFixture {
  let origin: ManagerOrigin
  let folder: TemporaryDirectory
  let manager: OfflineManager
  /// The served files' names, in order; each content's id is its file's name without `.bin`.
  let names: [String]

  /// Serves `files` (name → size; every name ends in `.bin`) and opens a manager whose
  /// store lives in a folder named with `prefix`, on `clock` when one is given (a manual
  /// clock nobody advances: no interval ever passes, however slow the machine).
  init(
    files: [String: Int], prefix: String, parallelDownloads: Int, pollInterval: Duration,
    clock: ManualClock? = nil
  ) throws {
    origin = try ManagerOrigin(files: files)
    folder = try TemporaryDirectory(prefix: prefix)
    var configuration = ManagerFixture.configuration(parallelDownloads: parallelDownloads)
    configuration.pollInterval = pollInterval
    if let clock { configuration.clock = clock }
    manager = try OfflineManager(
      directory: folder.url.appending(path: "store", directoryHint: .isDirectory),
      configuration: configuration)
    names = files.keys.sorted()
  }

  /// Queues one content per file, in `names`' order.
  func addAll() async throws -> [OfflineContent] {
    try await manager.add(
      names.map { OfflineSource(url: origin.url($0), id: String($0.dropLast(".bin".count))) })
  }

  /// Expects every one of `contents` downloaded, with the bytes its file has on the origin.
  func expectDownloaded(
    _ contents: [OfflineContent], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    for content in contents {
      let snapshot = try await manager.snapshot(id: content.id)
      #expect(
        snapshot.state == .downloaded, "\(content.id) is \(snapshot.state)",
        sourceLocation: sourceLocation)
      let path = try await content.playbackURL()
        .path
      #expect(
        FileManager.default.contents(atPath: path) == origin.body("\(content.id).bin"),
        "\(content.id) differs", sourceLocation: sourceLocation)
    }
  }
}
