import Foundation
import TestTiming
import Testing

@testable import OfflineStore

/// Who gets a name in the store's shared folder of single files (issue 14, no folder per
/// file unless names collide): the index decides, in the transaction that adds a content.
@Suite(.timed) struct FlatFileNameTests {
  func record(_ id: String, _ name: String, flat: Bool = true) -> ContentRecord {
    ContentRecord(
      id: id, url: "http://h/\(id)", fileName: name, state: .downloading, flatFile: flat)
  }

  /// Pins two contents sharing one file: a later content whose flat name (in any case, as a
  /// case-blind file system sees it) is taken, in the same batch or an earlier one, is
  /// stored with a folder of its own.
  @Test func aTakenFlatNameInAnyCaseGivesTheLaterContentAFolder() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    let first = try index.contents.insert([record("a", "x.bin"), record("b", "X.BIN")])
    let later = try index.contents.insert([record("c", "x.bin"), record("d", "y.bin")])

    #expect(first.map(\.flatFile) == [true, false])
    #expect(later.map(\.flatFile) == [false, true])
    #expect(try index.contents.record(id: "b")?.flatFile == false)
    #expect(try index.contents.record(id: "d")?.flatFile == true)
  }

  /// A taken id is still refused, flat name or not, and nothing of the batch is added.
  @Test func aTakenIdIsStillRefusedWithNothingAdded() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    try index.contents.insert([record("a", "x.bin")])

    #expect(throws: StoreError.self) {
      try index.contents.insert([record("n", "new.bin"), record("a", "x.bin")])
    }
    #expect(try index.contents.record(id: "n") == nil)
  }

  /// A rebuild never puts back two flat files of one name: the second is left out.
  @Test func aRestoredFlatFileWhoseNameIsTakenIsLeftOut() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    try index.contents.insert([record("a", "x.bin")])

    let restored = try index.contents.restore([record("b", "x.bin"), record("c", "z.bin")])

    #expect(restored == ["c"])
  }

  /// Pins the upsert of the flat-files merge: `INSERT OR REPLACE` deleted whatever row stood
  /// in the way of the flat-name index, so an update giving one content another's flat name
  /// removed that other content from the index. Now the update is refused, both rows stay.
  @Test func anUpdateToATakenFlatNameIsRefusedAndRemovesNothing() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    try index.contents.insert([record("a", "x.bin"), record("b", "y.bin")])

    #expect(throws: StoreError.self) {
      try index.contents.update(id: "b") { $0.fileName = "X.bin" }
    }
    #expect(try index.contents.record(id: "a")?.fileName == "x.bin")
    #expect(try index.contents.record(id: "b")?.fileName == "y.bin")
    // An ordinary update still writes in place.
    try index.contents.update(id: "b") { $0.bytes = 7 }
    #expect(try index.contents.record(id: "b")?.bytes == 7)
  }
}
