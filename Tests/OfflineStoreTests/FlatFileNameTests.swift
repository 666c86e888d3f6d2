import Foundation
import Testing

@testable import OfflineStore

/// Who gets a name in the store's shared folder of single files (issue 14, no folder per
/// file unless names collide): the index decides, in the transaction that adds a content.
@Suite struct FlatFileNameTests {
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
}
