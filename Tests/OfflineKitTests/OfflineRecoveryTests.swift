import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Opening a store that a crash left mid-change brings every content to a state that can
/// go on.
@Suite(.timed) struct OfflineRecoveryTests {
  let url = URL(string: "http://127.0.0.1:9/file.bin")!

  /// Leaves content `id` as a crash would: its record changed behind the manager's back, and
  /// `files` (name → bytes) in its folder with a journal entry for its file.
  func leave(
    _ id: String, in fixture: ManagerFixture, files: [String: Data],
    change: (inout ContentRecord) -> Void
  ) throws {
    let index = try OfflineIndex(directory: fixture.store)
    let record = try index.contents.update(id: id, change)
    // Where the record's files live: its folder, or the shared `files/` for a flat file.
    let folder =
      record?.flatFile == true ? fixture.store.appending(path: "files") : fixture.contentFolder(id)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, data) in files { try data.write(to: folder.appending(path: name)) }
    try index.transfers.save(
      TransferRecord(
        destination: folder.appending(path: "file.bin").path, url: url.absoluteString,
        bootID: BootIdentity.current, etag: "\"v1\""))
  }

  /// Neither the content's folder nor, for a flat file, its file or part is there.
  func nothingLeft(of id: String, in fixture: ManagerFixture) -> Bool {
    let shared = fixture.store.appending(path: "files/\(id).bin").path
    return [fixture.contentFolder(id).path, shared, shared + ".part"].allSatisfy {
      !FileManager.default.fileExists(atPath: $0)
    }
  }

  @Test func aCancelCutShortIsFinishedWhenTheStoreOpens() async throws {
    let fixture = try ManagerFixture()
    _ = try await fixture.manager.content(for: OfflineSource(url: url, id: "file"))
    try leave("file", in: fixture, files: ["file.bin.part": Data(count: 4096)]) {
      $0.state = .canceling
      $0.bytes = 4096
    }

    let manager = try fixture.reopened()

    let snapshot = try await manager.snapshot(id: "file")
    #expect(snapshot.state == .notDownloaded)
    #expect(snapshot.bytes == 0)
    #expect(nothingLeft(of: "file", in: fixture))
    #expect(try fixture.journalEntries(of: "file").isEmpty)
  }

  @Test func aDeleteCutShortIsFinishedWhenTheStoreOpens() async throws {
    let fixture = try ManagerFixture()
    _ = try await fixture.manager.content(for: OfflineSource(url: url, id: "file"))
    try leave("file", in: fixture, files: ["file.bin": Data(count: 4096)]) {
      $0.state = .notDownloaded
      $0.pendingCleanup = true
    }

    let manager = try fixture.reopened()

    #expect(try await manager.snapshot(id: "file").state == .notDownloaded)
    #expect(nothingLeft(of: "file", in: fixture))
    #expect(try fixture.journalEntries(of: "file").isEmpty)
    let record = try OfflineIndex(directory: fixture.store).contents.record(id: "file")
    #expect(record?.pendingCleanup == false)
  }

  @Test func aDownloadedContentWithACleanupIntentIsCleanedWhenTheStoreOpens() async throws {
    let fixture = try ManagerFixture()
    _ = try await fixture.manager.content(for: OfflineSource(url: url, id: "file"))
    try leave("file", in: fixture, files: ["file.bin": Data(count: 4096)]) {
      $0.state = .downloaded
      $0.bytes = 4096
      $0.total = 4096
      $0.pendingCleanup = true
    }

    let manager = try fixture.reopened()

    #expect(nothingLeft(of: "file", in: fixture))
    #expect(try fixture.journalEntries(of: "file").isEmpty)
    let record = try OfflineIndex(directory: fixture.store).contents.record(id: "file")
    #expect(record?.pendingCleanup == false)
    // Pins a bug: Recovery deletes the files but leaves the state `downloaded`, so the app
    // is handed an offline source that does not exist.
    let snapshot = try await manager.snapshot(id: "file")
    #expect(snapshot.state == .notDownloaded, "downloaded without a file")
    let content = try await manager.content(id: "file")
    await #expect {
      try await content.playbackURL()
    } throws: { ($0 as? OfflineError)?.code == .notPlayable }
  }

  @Test func aDamagedIndexIsMovedAsideAndDownloadedFilesAreKept() async throws {
    let folder = try TemporaryDirectory(prefix: "offlinekit-manager")
    let store = folder.url.appending(path: "store", directoryHint: .isDirectory)
    let kept = store.appending(path: "content/old/movie.mp4")
    try FileManager.default.createDirectory(
      at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
    let movie = TestData.bytes(count: 64 << 10, seed: 5)
    try movie.write(to: kept)
    let garbage = TestData.bytes(count: 16 << 10, seed: 6)
    try garbage.write(to: store.appending(path: OfflineIndex.fileName))

    let manager = try OfflineManager(
      directory: store, configuration: ManagerFixture.configuration())

    let quarantined = try #require(manager.quarantinedIndex)
    #expect(FileManager.default.contents(atPath: quarantined.path) == garbage)
    #expect(
      quarantined.deletingLastPathComponent().standardizedFileURL == store.standardizedFileURL)
    #expect(FileManager.default.contents(atPath: kept.path) == movie)
    #expect(try await manager.snapshots().isEmpty)
    let content = try await manager.content(for: OfflineSource(url: url, id: "new"))
    #expect(try await content.state == .notDownloaded)
  }

  /// The first response is held at 64 KiB (a scripted origin) while the manager stops, as
  /// an app killed mid-download leaves it.
  @Test func aDownloadLeftRunningContinuesFromItsPartWithARangeRequest() async throws {
    let origin = ScriptedOrigin(files: ["file.bin": 4 << 20])
    let gate = origin.holding("file.bin")
    let fixture = try origin.fixture()
    let (_, recorder) = try await fixture.startDownload(of: origin, "file.bin", id: "file")
    try await fixture.running {
      #expect(await gate.reached())
      #expect(await recorder.waitFor { ($0.progressBytes ?? 0) > 0 })
    }
    let part = fixture.file("file.bin.part", of: "file").path
    #expect(FileManager.default.fileExists(atPath: part))

    let manager = try fixture.reopened()
    #expect(try await manager.snapshot(id: "file").state == .downloading)
    #expect(try await runUntilIdle(manager))
    await manager.stop(suspendingRunning: false)

    let snapshot = try await manager.snapshot(id: "file")
    #expect(snapshot.state == .downloaded)
    #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == origin.body("file.bin"))
    let requests = origin.transport.requests
    #expect(requests.count == 2)
    #expect(requests.last?.range == "bytes=\(64 << 10)-", "the continued request had no Range")
    #expect(requests.last?.ifRange == "\"v1\"", "a 206 needs the stored validator")
  }
}
