import Foundation
import TestTiming
import Testing

@testable import OfflineStore

/// The contents table's revision, which tells the runner whether the queue's rows it read
/// are still what the table holds (issue 14, small files at curl's speed, fourth pass).
@Suite(.timed) struct ContentRevisionTests {
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

  /// Pins a race seen in `OfflineManagerSharingTests.aCancelFromAnotherManagerIsFinishedByTheRunner`
  /// under load: the runner saved a canceled download's last progress after the cancel had
  /// emptied it, and the snapshot of a content with nothing on disk said 4 MiB. Progress is
  /// kept for what is downloading or suspended only.
  @Test func aLateProgressSaveGivesNoBytesToAContentThatIsNoLongerDownloading() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    let contents = index.contents
    let states: [ContentState] = [.downloading, .suspended, .canceling, .notDownloaded]
    try contents.insert(
      states.map {
        ContentRecord(id: $0.rawValue, url: "http://h/a", fileName: "\($0).bin", state: $0)
      })
    for state in states {
      try contents.updateProgress(id: state.rawValue, bytes: 7, total: 9, totalIsEstimate: false)
    }
    var bytes: [ContentState: Int64] = [:]
    for state in states {
      bytes[state] = try #require(try contents.record(id: state.rawValue)).bytes
    }
    #expect(bytes == [.downloading: 7, .suspended: 7, .canceling: 0, .notDownloaded: 0])
  }
}
