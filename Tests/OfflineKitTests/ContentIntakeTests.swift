import Foundation
import OfflineStore
import TestTiming
import Testing

@testable import OfflineKit

/// Which contents sources name and the records of the new ones, decided as a value (issue
/// 38, item 1: `makeContents` decided it inline between its index reads and its insert).
@Suite(.timed) struct ContentIntakeTests {
  static func source(_ url: String, id: String? = nil) -> OfflineSource {
    OfflineSource(url: URL(string: url)!, id: id, title: "T")
  }

  static func existing(_ id: String, _ url: String) -> ContentRecord {
    ContentRecord(id: id, url: url, fileName: "x.bin", state: .downloaded)
  }

  @Test func anIDNamesItsContentAndAURLWithoutAnIDItsFirstContent() throws {
    let known = ContentIntake.Known(
      byID: ["mine": Self.existing("mine", "https://a.test/1.bin")],
      byURL: ["https://a.test/2.bin": Self.existing("first", "https://a.test/2.bin")])
    let intake = try ContentIntake.decide(
      [Self.source("https://a.test/1.bin", id: "mine"), Self.source("https://a.test/2.bin")],
      known: known, queueing: nil, storedOptions: nil)
    #expect(intake.ids == ["mine", "first"] && intake.fresh.isEmpty)
  }

  @Test func anIDGivenForAnotherURLIsADuplicate() {
    let known = ContentIntake.Known(byID: ["mine": Self.existing("mine", "https://a.test/1.bin")])
    let error = #expect(throws: OfflineError.self) {
      try ContentIntake.decide(
        [Self.source("https://a.test/other.bin", id: "mine")], known: known, queueing: nil,
        storedOptions: nil)
    }
    #expect(error?.code == .duplicateID)
  }

  @Test func aURLTwiceInOneCallMakesOneContent() throws {
    let known = ContentIntake.Known(unusedIDs: ["n2", "n1"])
    let intake = try ContentIntake.decide(
      [Self.source("https://a.test/a.bin"), Self.source("https://a.test/a.bin")], known: known,
      queueing: nil, storedOptions: nil)
    #expect(intake.ids == ["n1", "n1"] && intake.fresh.map(\.id) == ["n1"])
  }

  @Test func aFileTakesTheSharedFolderUnlessItsNameIsTakenThereAndAStreamNever() throws {
    let known = ContentIntake.Known(
      unusedIDs: ["n3", "n2", "n1"], flatNamesOnDisk: ["taken.bin.part"])
    let intake = try ContentIntake.decide(
      [
        Self.source("https://a.test/free.bin"), Self.source("https://a.test/taken.bin"),
        Self.source("https://a.test/live/index.m3u8"),
      ], known: known, queueing: nil, storedOptions: nil)
    #expect(intake.fresh.map(\.flatFile) == [true, false, false])
    #expect(intake.fresh.map(\.fileName) == ["free.bin", "taken.bin", "index.m3u8"])
    #expect(intake.fresh.allSatisfy { $0.state == .notDownloaded && $0.title == "T" })
  }

  @Test func queuedContentsAreMadeDownloadingWithTheirConfiguration() throws {
    let sha = String(repeating: "ab", count: 32)
    let configuration = try DownloadConfiguration(expectedSHA256: sha, priority: 4)
    let intake = try ContentIntake.decide(
      [Self.source("https://a.test/a.bin")], known: .init(unusedIDs: ["n1"]),
      queueing: configuration, storedOptions: configuration.storedOptions)
    let record = try #require(intake.fresh.first)
    #expect(record.state == .downloading && record.waitReason == .queued)
    #expect(record.priority == 4 && record.expectedSHA256 == sha)
    #expect(record.options == configuration.storedOptions)
  }

  @Test func badSourcesAreRefusedWithTheirError() {
    func refusal(_ source: OfflineSource) -> OfflineError? {
      #expect(throws: OfflineError.self) {
        try ContentIntake.decide(
          [source], known: .init(unusedIDs: ["n1"]), queueing: nil, storedOptions: nil)
      }
    }
    func code(_ source: OfflineSource) -> OfflineError.Code? { refusal(source)?.code }
    #expect(code(Self.source("ftp://a.test/a.bin")) == .invalidURL)
    #expect(code(Self.source("https://a.test/a.bin", id: "../up")) == .invalidID)
    var options = RequestOptions()
    options.trustedOrigins = [URL(string: "ftp://example.com")!]
    let refused = OfflineSource(url: URL(string: "https://a.test/a.bin")!, requestOptions: options)
    guard case .transfer(let error) = refusal(refused)?.kind else {
      Issue.record("unusable options are the transfer's error")
      return
    }
    #expect(error.code == .invalidRequestOptions)
  }
}
