import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: what a steering manifest's bytes say (RFC 8216bis §7.2), read as a
/// value; anything else leaves the playlist's own order.
@Suite(.timed) struct HLSSteeringTests {
  @Test func readsThePathwayPriority() {
    let json = #"{"VERSION":1,"TTL":300,"RELOAD-URI":"x.json","PATHWAY-PRIORITY":["B","A"]}"#
    #expect(HLSSteering.priority(of: Data(json.utf8)) == ["B", "A"])
  }

  @Test(arguments: [
    "not json", "[]", #"{"VERSION":2,"PATHWAY-PRIORITY":["A"]}"#, #"{"PATHWAY-PRIORITY":["A"]}"#,
    #"{"VERSION":1,"PATHWAY-PRIORITY":"A"}"#,
  ])
  func anythingElseNamesNoPathway(text: String) {
    #expect(HLSSteering.priority(of: Data(text.utf8)).isEmpty)
  }

  @Test func aLongListIsCutAndEmptyNamesAreDropped() {
    let names = (0..<500).map { "\"p\($0)\"" }.joined(separator: ",")
    let json = #"{"VERSION":1,"PATHWAY-PRIORITY":["",\#(names)]}"#
    let priority = HLSSteering.priority(of: Data(json.utf8))
    #expect(priority.count == 64)
    #expect(priority.first == "p0")
  }
}
