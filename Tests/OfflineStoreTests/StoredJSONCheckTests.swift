import Foundation
import TestTiming
import Testing

@testable import OfflineStore

/// A row's JSON column is checked when it is read, but the queue's rows mostly share one
/// options text. Pins issue 14 (1000 small files): every read of a content parsed its options
/// again, a twentieth of the runner's CPU.
@Suite(.timed) struct StoredJSONCheckTests {
  @Test func readingManyRowsThatShareOneOptionsTextParsesItOnce() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    let options = try #require(StoredJSON(text: #"{"connections":3,"tag":"\#(UUID())"}"#))
    try index.contents.insert(
      (1...200).map {
        ContentRecord(
          id: "c\($0)", url: "http://h/\($0)", fileName: "f", state: .downloading,
          options: options)
      })
    let before = JSONTextCheck.parses

    let records = try index.contents.all()

    #expect(records.count == 200)
    #expect(records.allSatisfy { $0.options == options })
    #expect(JSONTextCheck.parses - before < 10, "each row's options were parsed again")
  }

  @Test func textThatIsNotJSONIsRefusedEveryTimeItIsRead() {
    let text = #"{"connections":3,"#
    for _ in 1...3 {
      #expect(StoredJSON(text: text) == nil)
    }
    #expect(StoredJSON(text: #"{"connections":3}"#) != nil)
  }
}
