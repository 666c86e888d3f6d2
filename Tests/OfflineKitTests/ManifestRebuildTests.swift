import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Rebuilding the index from manifests that a damaged disk or a hostile user wrote: each bad
/// one is skipped with its reason, nothing it names is followed or touched outside its
/// folder, and the good ones are adopted. Pins issue 11, item 10 (manifests must never be
/// followed out of the store).
@Suite(.timed) struct ManifestRebuildTests {
  let url = "http://127.0.0.1:9/file.bin"

  func manifest(id: String, files: [ContentManifest.File]) -> ContentManifest {
    var manifest = ContentManifest(
      record: ContentRecord(
        id: id, url: url, title: "T \(id)", fileName: "file.bin", state: .downloaded,
        sequence: 1, bytes: 4, total: 4),
      state: .downloaded)
    manifest.files = files
    return manifest
  }

  func write(_ data: Data, folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try data.write(to: folder.appending(path: ContentManifest.fileName))
  }

  func encoded(_ manifest: ContentManifest) throws -> Data { try JSONEncoder().encode(manifest) }

  @Test func malformedAndHostileManifestsAreSkippedWithAReasonAndNeverFollowed() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-manifest")
    let store = root.url.appending(path: "store")
    let content = store.appending(path: "content")
    let outside = root.url.appending(path: "outside")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    let secret = outside.appending(path: "file.bin")
    try Data("precious outside data".utf8).write(to: secret)
    let four = [ContentManifest.File(path: "file.bin", size: 4)]

    // A good one, with its file.
    try write(
      try encoded(manifest(id: "good", files: four)), folder: content.appending(path: "good"))
    try Data("1234".utf8).write(to: content.appending(path: "good/file.bin"))
    // Garbage JSON.
    try write(Data("{not json".utf8), folder: content.appending(path: "garbage"))
    // An id that climbs, in a folder of another name.
    try write(
      try encoded(manifest(id: "../x", files: four)), folder: content.appending(path: "climb"))
    // A file path outside the folder, absolute and climbing.
    try write(
      try encoded(manifest(id: "absolute", files: [.init(path: secret.path, size: 1)])),
      folder: content.appending(path: "absolute"))
    try write(
      try encoded(manifest(id: "dots", files: [.init(path: "../../../outside/file.bin", size: 1)])),
      folder: content.appending(path: "dots"))
    // A folder whose sub-folder is a link out of the store: its file has the wrong size, and
    // the file it links to must stay.
    try write(
      try encoded(manifest(id: "sneaky", files: [.init(path: "sub/file.bin", size: 4)])),
      folder: content.appending(path: "sneaky"))
    try FileManager.default.createSymbolicLink(
      at: content.appending(path: "sneaky/sub"), withDestinationURL: outside)
    // A content folder that is a link, and a manifest that is a link.
    try write(
      try encoded(manifest(id: "linked", files: four)), folder: outside.appending(path: "m"))
    try FileManager.default.createSymbolicLink(
      at: content.appending(path: "linked"), withDestinationURL: outside.appending(path: "m"))
    try FileManager.default.createDirectory(
      at: content.appending(path: "manifestlink"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: content.appending(path: "manifestlink/\(ContentManifest.fileName)"),
      withDestinationURL: outside.appending(path: "m/\(ContentManifest.fileName)"))
    // A ledger entry with a hostile id, and a ledger chunk of garbage.
    let ledger = QueueLedger(contentFolder: content)
    var hostile = manifest(id: "../../y", files: [])
    hostile.state = "downloading"
    ledger.append([hostile])
    try Data("[{]".utf8).write(to: ledger.folder.appending(path: "q-5-5-1.json"))
    // The index, garbage.
    try TestData.bytes(count: 8 << 10, seed: 3).write(
      to: store.appending(path: OfflineIndex.fileName))

    let manager = try OfflineManager(
      directory: store, configuration: ManagerFixture.configuration())

    let report = try #require(manager.rebuildReport)
    // "sneaky" is valid but its file is not there as a regular file: queued again, with why.
    #expect(report.restored.map(\.id) == ["good", "sneaky"])
    #expect(report.restored.first?.state == .downloaded)
    #expect(report.restored.last?.state == .downloading)
    #expect(report.restored.last?.note?.contains("not a regular file") == true)
    let snapshots = try await manager.snapshots()
    #expect(snapshots.map(\.id) == ["good", "sneaky"])
    let reasons = Dictionary(
      report.skipped.map {
        (URL(fileURLWithPath: $0.path).pathComponents.suffix(2).joined(separator: "/"), $0.reason)
      },
      uniquingKeysWith: { $0 + "; " + $1 })
    #expect(reasons["garbage/\(ContentManifest.fileName)"]?.contains("JSON") == true, "\(reasons)")
    #expect(reasons["climb/\(ContentManifest.fileName)"]?.contains("id") == true, "\(reasons)")
    #expect(
      reasons["absolute/\(ContentManifest.fileName)"]?.contains("outside") == true, "\(reasons)")
    #expect(reasons["dots/\(ContentManifest.fileName)"]?.contains("outside") == true, "\(reasons)")
    #expect(reasons["content/linked"]?.contains("not a folder") == true, "\(reasons)")
    #expect(
      reasons["manifestlink/\(ContentManifest.fileName)"]?.contains("link") == true, "\(reasons)")
    #expect(reasons["content/.queue"]?.contains("id") == true, "\(reasons)")
    #expect(reasons[".queue/q-5-5-1.json"]?.contains("JSON") == true, "\(reasons)")
    // The sneaky one is not adopted as downloaded, and the file its link reaches is intact.
    #expect(!snapshots.contains { $0.id == "sneaky" && $0.state == .downloaded })
    #expect(FileManager.default.contents(atPath: secret.path) == Data("precious outside data".utf8))
    #expect(!FileManager.default.fileExists(atPath: root.url.appending(path: "x").path))
  }

  /// The explicit operation on a healthy index adopts only contents it does not have.
  @Test func rebuildingAHealthyIndexAdoptsOnlyWhatItLacks() async throws {
    let fixture = try ManagerFixture()
    _ = try await fixture.manager.add([
      OfflineSource(url: URL(string: url)!, id: "known", title: "Known")
    ])
    let orphan = fixture.contentFolder("orphan")
    try write(
      try encoded(manifest(id: "orphan", files: [.init(path: "file.bin", size: 4)])), folder: orphan
    )
    try Data("1234".utf8).write(to: orphan.appending(path: "file.bin"))

    let report = try await fixture.manager.rebuildFromManifests()

    #expect(report.restored.map(\.id) == ["orphan"])
    let states = try await fixture.manager.snapshots().map { "\($0.id):\($0.state.rawValue)" }
    #expect(Set(states) == ["known:downloading", "orphan:downloaded"])
  }

  /// A store made before manifests existed (records written straight into the index, no
  /// manifest anywhere) gets them when it is first opened, so a later damage loses nothing.
  @Test func contentsFromBeforeManifestsGetThemWhenTheStoreFirstOpens() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-manifest")
    let store = root.url.appending(path: "store")
    do {
      let index = try OfflineIndex(directory: store)
      try index.contents.insert([
        ContentRecord(
          id: "old", url: url, title: "Old", fileName: "file.bin", state: .downloaded,
          bytes: 4, total: 4),
        ContentRecord(
          id: "waiting", url: url + "?2", fileName: "file.bin", state: .downloading,
          waitReason: .queued),
      ])
      let folder = store.appending(path: "content/old")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("1234".utf8).write(to: folder.appending(path: "file.bin"))
    }
    #expect(
      !FileManager.default.fileExists(
        atPath: store.appending(path: "content/old/\(ContentManifest.fileName)").path))

    _ = try OfflineManager(directory: store, configuration: ManagerFixture.configuration())
    try TestData.bytes(count: 8 << 10, seed: 4).write(
      to: store.appending(path: OfflineIndex.fileName))
    let reopened = try OfflineManager(
      directory: store, configuration: ManagerFixture.configuration())

    #expect(reopened.quarantinedIndex != nil)
    let states = try await reopened.snapshots().map { "\($0.id):\($0.state.rawValue)" }
    #expect(states == ["old:downloaded", "waiting:downloading"])
  }

  /// A suspended content's manifest carries its parts' journal entries whole: validators,
  /// offsets, boot id, the parts' content coding and a finished piece's file identity come
  /// back after a rebuild, so the resume rules (never append another coding; an untouched
  /// piece is complete) hold as if the journal had not been lost.
  @Test func aSuspendedContentsJournalEntriesComeBackWhole() async throws {
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: URL(string: url)!, id: "paused"))
    try await content.download()
    try await content.suspend()
    let folder = fixture.file("file.bin", of: "paused").deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(count: 100).write(to: folder.appending(path: "file.bin.part"))
    let entry = TransferRecord(
      destination: folder.appending(path: "file.bin").path, url: url, durableOffset: 64,
      bootID: "boot-1", totalLength: 1000, etag: "\"v1\"", lastModified: "yesterday",
      contentEncoding: "gzip",
      fileIdentity: FileIdentity(size: 5, modificationNanoseconds: 6, inode: 7, device: 8))
    try OfflineIndex(directory: fixture.store).transfers.save(entry)
    try await content.resume()
    try await content.suspend()  // not running here: the manifest is written at once
    try ManagerFixture.destroyIndex(of: fixture.store, seed: 5)

    let reopened = try fixture.reopened()

    #expect(reopened.quarantinedIndex != nil)
    #expect(reopened.rebuildReport?.restored.map(\.id) == ["paused"])
    #expect(try await reopened.snapshot(id: "paused").state == .suspended)
    var restored = try #require(try fixture.journalEntries(of: "paused").first)
    restored.updatedAt = entry.updatedAt
    #expect(restored == entry)
  }

  /// Only the download choices a rebuild needs go into a manifest: anything else the index
  /// keeps in a content's options (request headers or credentials, should they be stored
  /// there) stays in the index.
  @Test func aManifestKeepsOnlyTheDownloadChoicesOfTheOptions() throws {
    let record = ContentRecord(
      id: "x", url: url, fileName: "file.bin", state: .downloading,
      options: StoredJSON(
        text:
          #"{"connections":2,"hls":{"parallelSegments":3},"headers":{"Authorization":"Bearer s3cret"}}"#
      ))

    let manifest = ContentManifest(record: record, state: .downloading)

    let text = String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self)
    #expect(!text.contains("s3cret") && !text.contains("Authorization"), "\(text)")
    let restored = manifest.record(state: .downloading)
    #expect(try DownloadConfiguration.stored(in: restored).connections == .fixed(2))
    #expect(try DownloadConfiguration.stored(in: restored).stream.parallelSegments == 3)
  }
}
