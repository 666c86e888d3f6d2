import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Where a single file lives in the store (issue 14, "no folder per file unless names
/// collide"): every file had a folder of its own under `content/`, a `.part` and a manifest
/// written through a temporary, three inodes a file where curl makes one. A single file now
/// goes to the store's shared `files/` folder under its own name, its manifest into the
/// queue ledger, and only a name another content's file has gets a folder.
@Suite(.serialized, .timed) struct FlatFileLayoutTests {
  func sharedFile(_ fixture: ManagerFixture, _ name: String) -> URL {
    sharedFile(fixture.store, name)
  }

  func sharedFile(_ store: URL, _ name: String) -> URL {
    store.appending(path: "files").appending(path: name)
  }

  /// Pins the folder and manifest per file of issue 14: after a queue of three files,
  /// `content/` holds only the ledger, and the ledger says each one is downloaded.
  @Test func queuedFilesLiveInTheSharedFolderWithNoFolderOrManifestOfTheirOwn() async throws {
    let origin = try ManagerOrigin(files: ["a.bin": 40 << 10, "b.bin": 50 << 10, "c.bin": 1])
    let fixture = try ManagerFixture()
    let names = ["a.bin", "b.bin", "c.bin"]
    let contents = try await fixture.manager.add(
      names.map { OfflineSource(url: origin.url($0), id: String($0.prefix(1))) })
    #expect(try await runUntilIdle(fixture.manager))

    for (content, name) in zip(contents, names) {
      let snapshot = try await fixture.manager.snapshot(id: content.id)
      #expect(snapshot.state == .downloaded)
      #expect(snapshot.fileURL.path == sharedFile(fixture, name).path)
      #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == origin.body(name))
    }
    let content = fixture.store.appending(path: "content")
    #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == [".queue"])
    let entries = QueueLedger(contentFolder: content).entries().manifests
    #expect(Set(entries.filter { $0.state == "downloaded" }.map(\.id)) == ["a", "b", "c"])
    await fixture.manager.close()
  }

  /// Two contents whose files have one name never share a file: the later one gets a
  /// folder, and deleting the first leaves the second whole.
  @Test func twoContentsWithOneFileNameKeepTheirOwnBytes() async throws {
    let origin = try ManagerOrigin(files: [:])
    for (folder, size) in [("one", 30 << 10), ("two", 20 << 10)] {
      try FileManager.default.createDirectory(
        at: origin.root.file(folder), withIntermediateDirectories: true)
      try ManagerOrigin.body(of: folder, size: size).write(to: origin.root.file("\(folder)/x.bin"))
    }
    let fixture = try ManagerFixture()
    let contents = try await fixture.manager.add([
      OfflineSource(url: origin.url("one/x.bin"), id: "one"),
      OfflineSource(url: origin.url("two/x.bin"), id: "two"),
    ])
    #expect(try await runUntilIdle(fixture.manager))

    let first = try await fixture.manager.snapshot(id: "one")
    let second = try await fixture.manager.snapshot(id: "two")
    #expect(first.fileURL.path == sharedFile(fixture, "x.bin").path)
    #expect(second.fileURL.path == fixture.contentFolder("two").appending(path: "x.bin").path)
    #expect(FileManager.default.contents(atPath: first.fileURL.path) == origin.body("one/x.bin"))
    #expect(FileManager.default.contents(atPath: second.fileURL.path) == origin.body("two/x.bin"))

    try await contents[0].deleteOfflineData()
    #expect(!FileManager.default.fileExists(atPath: first.fileURL.path))
    #expect(try await contents[1].verify().isWhole)
    #expect(FileManager.default.contents(atPath: second.fileURL.path) == origin.body("two/x.bin"))
    await fixture.manager.close()
  }

  /// A file already in the shared folder that no content owns (copied there by hand, say)
  /// is never written over: the content of that name downloads into a folder of its own.
  @Test func aFileLeftInTheSharedFolderIsNeverWrittenOver() async throws {
    let origin = try ManagerOrigin(files: ["x.bin": 10 << 10])
    let fixture = try ManagerFixture()
    let stray = sharedFile(fixture, "x.bin")
    try FileManager.default.createDirectory(
      at: stray.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("someone's own file".utf8).write(to: stray)
    _ = try await fixture.manager.add([OfflineSource(url: origin.url("x.bin"), id: "x")])
    #expect(try await runUntilIdle(fixture.manager))

    let snapshot = try await fixture.manager.snapshot(id: "x")
    #expect(snapshot.state == .downloaded)
    #expect(snapshot.fileURL.path == fixture.contentFolder("x").appending(path: "x.bin").path)
    #expect(FileManager.default.contents(atPath: stray.path) == Data("someone's own file".utf8))
    await fixture.manager.close()
  }

  /// The manifests of flat files are in the ledger only: a lost index is rebuilt from it,
  /// the files verify against what it recorded, and a delete takes only its own file.
  @Test func aRebuiltIndexAdoptsFlatFilesThatVerifyAndDeleteAlone() async throws {
    let origin = try ManagerOrigin(files: ["a.bin": 3 << 20, "b.bin": 30 << 10])
    let lost = try await ManagerFixture.losingTheIndex(seed: 11) { manager, _ in
      _ = try await manager.add([
        OfflineSource(url: origin.url("a.bin"), id: "a"),
        OfflineSource(url: origin.url("b.bin"), id: "b"),
      ])
      #expect(try await runUntilIdle(manager))
      await manager.close()
    }
    let (store, manager) = (lost.store, lost.manager)

    #expect(manager.quarantinedIndex != nil)
    #expect(Set(manager.rebuildReport?.restored.map(\.id) ?? []) == ["a", "b"])
    #expect(manager.rebuildReport?.restored.allSatisfy { $0.state == .downloaded } == true)
    let a = try await manager.content(id: "a")
    let b = try await manager.content(id: "b")
    #expect(try await manager.snapshot(id: "a").fileURL.path == sharedFile(store, "a.bin").path)
    try FileDamage.flipByte(at: 2 << 20, of: sharedFile(store, "a.bin").path)
    #expect(try await a.verify().damage?.problems.map(\.path) == ["a.bin"])
    try await a.repair()
    #expect(
      FileManager.default.contents(atPath: sharedFile(store, "a.bin").path) == origin.body("a.bin"))

    try await a.deleteOfflineData()
    #expect(!FileManager.default.fileExists(atPath: sharedFile(store, "a.bin").path))
    #expect(try await b.verify().isWhole)
    await manager.close()
  }

  /// A content made before the shared folder existed (its row reads `flat_file` 0 after the
  /// migration) keeps its folder: it downloads, verifies, comes back from its folder
  /// manifest after a lost index, and its delete removes that folder.
  @Test func aContentFromBeforeTheSharedFolderKeepsItsFolder() async throws {
    let origin = try ManagerOrigin(files: ["old.bin": 64 << 10])
    let lost = try await ManagerFixture.losingTheIndex(seed: 12) { manager, store in
      let content = try await manager.content(
        for: OfflineSource(url: origin.url("old.bin"), id: "old"))
      try OfflineIndex(directory: store).contents.update(id: "old") { $0.flatFile = false }
      try await content.download()
      #expect(try await runUntilIdle(manager))
      #expect(try await content.verify().isWhole)
      await manager.close()
      let folder = store.appending(path: "content/old", directoryHint: .isDirectory)
      #expect(FileManager.default.fileExists(atPath: folder.appending(path: "old.bin").path))
      #expect(
        FileManager.default.fileExists(atPath: folder.appending(path: ".manifest.json").path))
    }
    let manager = lost.manager
    let folder = lost.store.appending(path: "content/old", directoryHint: .isDirectory)
    #expect(manager.rebuildReport?.restored.map(\.state) == [.downloaded])
    let content = try await manager.content(id: "old")
    #expect(
      try await manager.snapshot(id: "old").fileURL.path == folder.appending(path: "old.bin").path)
    #expect(try await content.verify().isWhole)
    try await content.deleteOfflineData()
    #expect(!FileManager.default.fileExists(atPath: folder.path))
    await manager.close()
  }

  /// A flat file's path is joined as a string rather than through `URL` (each launch of a
  /// queued file asked for it): it must be the very path its `URL` names, or the journal,
  /// the rename and the piece record would disagree about where the file is.
  @Test func aSharedFilesPathIsThePathItsURLNames() throws {
    let store = try TemporaryDirectory(prefix: "offlinekit-paths")
    let files = ContentFiles(index: try OfflineIndex(directory: store.url), directory: store.url)
    for name in ["x.bin", "a b%20c.bin", "-dash", "\u{e9}t\u{e9}.mp4", "..x", "100%.txt", "a+b=c"] {
      for flat in [true, false] {
        let record = ContentRecord(
          id: "id1", url: "http://h/\(name)", fileName: name, state: .downloading, flatFile: flat)
        #expect(files.destination(of: record) == files.file(of: record).path)
      }
    }
    #expect(files.flatFolderPath == sharedFile(store.url, "x").deletingLastPathComponent().path)
  }
}
