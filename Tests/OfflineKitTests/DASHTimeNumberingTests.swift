import DASHManifest
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// The numbers a live DASH recording gives segments named by `$Time$` only, so the gap
/// ledger counts them as it counts `$Number$`s.
@Suite(.timed) struct DASHTimeNumberingTests {
  /// Segments of 2 units starting at `times`.
  func window(_ times: [UInt64]) -> [SegmentReference] {
    times.map {
      SegmentReference(
        url: URL(string: "https://cdn.example/v-\($0).m4s")!, number: 1, time: $0, duration: 2)
    }
  }

  func numbers(_ numbering: inout DASHLiveState.TimeNumbering, _ times: [UInt64]) -> [UInt64] {
    numbering.number(window(times)).compactMap(\.number)
  }

  @Test func aSegmentKeepsItsNumberAsTheWindowSlides() {
    var numbering = DASHLiveState.TimeNumbering()
    #expect(numbers(&numbering, [100, 102, 104]) == [1, 2, 3])
    #expect(numbers(&numbering, [102, 104, 106, 108]) == [2, 3, 4, 5])
    #expect(numbers(&numbering, [108, 110]) == [5, 6])
  }

  @Test func segmentsThatLeftTheWindowUnseenAreSkippedNumbers() {
    var numbering = DASHLiveState.TimeNumbering()
    #expect(numbers(&numbering, [0, 2]) == [1, 2])
    // 4, 6 and 8 went by between two reloads: three numbers for the ledger.
    #expect(numbers(&numbering, [10, 12]) == [6, 7])
  }

  @Test func aTimelineRewrittenBackwardsBringsNothingNew() {
    var numbering = DASHLiveState.TimeNumbering()
    #expect(numbers(&numbering, [20, 22]) == [1, 2])
    #expect(numbers(&numbering, [17, 19, 22]) == [2])
  }

  @Test func theNumberingIsSavedAndReadBack() throws {
    var numbering = DASHLiveState.TimeNumbering()
    _ = numbers(&numbering, [0, 2, 4])
    let data = try JSONEncoder().encode(numbering)
    var read = try JSONDecoder().decode(DASHLiveState.TimeNumbering.self, from: data)
    #expect(read == numbering)
    #expect(numbers(&read, [4, 6]) == [3, 4])
  }
}
