import Foundation
import TestTiming
import Testing

@testable import OfflineStore

/// The batching calls a busy queue makes (issue 14, small files at curl's speed).
@Suite(.timed) struct ContentTableBatchTests {
  func makeIndex(_ folder: TemporaryDirectory, ids: [String]) throws -> OfflineIndex {
    let index = try OfflineIndex(directory: folder.url)
    try index.contents.insert(
      ids.map { ContentRecord(id: $0, url: "http://h/\($0)", fileName: "f", state: .downloading) })
    return index
  }

  /// Pins the queue's per-turn reading: every turn read the rows of what was running too
  /// (and decoded them), only to skip them.
  @Test func runnableLeavesOutTheContentsItIsToldAreRunning() throws {
    let folder = try TemporaryDirectory()
    let index = try makeIndex(folder, ids: ["a", "b\"q", "c", "d"])

    let found = try index.contents.runnable(
      state: .downloading, now: Date(), limit: 2, excluding: ["a", "b\"q"])

    #expect(found.map(\.id) == ["c", "d"])
  }

  /// Many contents' state changes are one transaction: those the body accepts are written,
  /// the others and unknown ids are left alone.
  @Test func updatingManyIdsWritesOnlyThoseTheBodyAccepts() throws {
    let folder = try TemporaryDirectory()
    let index = try makeIndex(folder, ids: ["a", "b", "c"])

    let written = try index.contents.update(ids: ["a", "missing", "b", "c"]) { record in
      guard record.id != "b" else { return false }
      record.state = .downloaded
      return true
    }

    #expect(written.map(\.id) == ["a", "c"])
    #expect(try index.contents.record(id: "a")?.state == .downloaded)
    #expect(try index.contents.record(id: "b")?.state == .downloading)
    #expect(try index.contents.record(id: "c")?.state == .downloaded)
  }

  /// A body that throws writes nothing at all.
  @Test func updatingManyIdsWritesNothingWhenTheBodyThrows() throws {
    struct Refused: Error {}
    let folder = try TemporaryDirectory()
    let index = try makeIndex(folder, ids: ["a", "b"])

    #expect(throws: Refused.self) {
      try index.contents.update(ids: ["a", "b"]) { record in
        if record.id == "b" { throw Refused() }
        record.state = .downloaded
        return true
      }
    }

    #expect(try index.contents.record(id: "a")?.state == .downloading)
  }
}

/// The reads and writes of one batch of finished files (issue 14): one query for the
/// batch's records, one transaction for what their files must be.
@Suite(.timed) struct FinishedBatchStoreTests {
  @Test func recordsByIdsGivesThoseThatExistInOneRead() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    try index.contents.insert(
      ["a", "b\"q", "c"].map {
        ContentRecord(id: $0, url: "http://h/\($0)", fileName: "f", state: .downloading)
      })

    let found = try index.contents.records(ids: ["c", "missing", "b\"q"])

    #expect(Set(found.keys) == ["c", "b\"q"])
    #expect(found["c"]?.url == "http://h/c")
    #expect(try index.contents.records(ids: []).isEmpty)
  }

  @Test func replacingThePiecesOfManyContentsKeepsEachItsOwnAndLeavesTheOthers() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    func piece(_ content: String, _ path: String) -> PieceRecord {
      PieceRecord(
        contentID: content, path: path, kind: .file, size: 4,
        sha256: String(repeating: "a", count: 64))
    }
    try index.pieces.replace([piece("a", "old.bin")], forContent: "a")
    try index.pieces.replace([piece("z", "z.bin")], forContent: "z")

    try index.pieces.replace(byContent: [
      "a": [piece("a", "a.bin")], "b": [piece("b", "b.bin"), piece("b", "b2.bin")],
    ])

    #expect(try index.pieces.pieces(ofContent: "a").map(\.path) == ["a.bin"])
    #expect(try index.pieces.pieces(ofContent: "b").map(\.path).sorted() == ["b.bin", "b2.bin"])
    #expect(try index.pieces.pieces(ofContent: "z").map(\.path) == ["z.bin"])
  }
}
