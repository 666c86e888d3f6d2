import Foundation
import Testing

@testable import OfflineStore

/// The contents table's revision, which tells the runner whether the queue's rows it read
/// are still what the table holds (issue 14, small files at curl's speed, fourth pass).
@Suite struct ContentRevisionTests {
  /// Every write moves the revision, so rows read before it are read again; only the
  /// runner's own marks on what it runs (progress, `starting`, receiving) leave it. A write
  /// the revision missed would let the runner start a content suspended or deleted
  /// meanwhile.
  @Test func everyWriteButTheRunnersProgressMarksMovesTheRevision() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    let contents = index.contents
    var last = contents.revision
    func moved(_ write: () throws -> Void) rethrows -> Bool {
      try write()
      defer { last = contents.revision }
      return contents.revision != last
    }
    let record = ContentRecord(
      id: "a", url: "http://h/a", fileName: "a.bin", state: .downloading)

    #expect(try moved { try contents.insert([record]) })
    #expect(try moved { try contents.setWaitReason(.starting, id: "a") } == false)
    #expect(try moved { try contents.setWaitReason(nil, id: "a") } == false)
    #expect(try moved { try contents.setWaitReason(.network, id: "a") })
    #expect(try moved { try contents.update(id: "a") { $0.state = .suspended } })
    #expect(try moved { try contents.update(ids: ["a"]) { _ in true } })
    #expect(
      try moved {
        try contents.updateProgress(id: "a", bytes: 1, total: 2, totalIsEstimate: false)
      } == false)
    #expect(try moved { try contents.remove(id: "a") })
    #expect(try moved { try contents.restore([record]) })
  }
}
