import TestTiming
import Testing

@testable import OfflineKit

/// The live recording's number sets: recorded numbers kept as runs, and the gap ledger
/// merging neighbours of the same reason whatever order numbers settle in.
@Suite(.timed) struct LiveLedgerStorageTests {
  @Test func numbersInsertedOutOfOrderMergeIntoRuns() {
    var ranges = SequenceRanges()
    for number in [5, 1, 3, 2, 9, 4, 8] { ranges.insert(number) }
    #expect(ranges.runs == [1...5, 8...9])
    #expect(ranges.count == 7)
    #expect(ranges.contains(4) && !ranges.contains(6) && !ranges.contains(10))
  }

  @Test func aRunSpanningSeveralRunsSwallowsThem() {
    var ranges = SequenceRanges([1, 4, 7, 20])
    ranges.insert(2...8)
    #expect(ranges.runs == [1...8, 20...20])
  }

  @Test func gapsOfTheSameReasonMergeWhenTheyTouchInAnyOrder() {
    var ledger = LiveGapLedger()
    ledger.add(LiveGap(sequences: 7...9, reason: .fellOutOfWindow))
    ledger.add(LiveGap(sequences: 3...3, reason: .fellOutOfWindow))
    ledger.add(LiveGap(sequences: 4...6, reason: .fellOutOfWindow))
    #expect(ledger.gaps == [LiveGap(sequences: 3...9, reason: .fellOutOfWindow)])
    #expect(ledger.count == 7)
  }

  @Test func gapsOfDifferentReasonsStaySeparate() {
    var ledger = LiveGapLedger()
    ledger.add(LiveGap(sequences: 4...6, reason: .notRunning))
    ledger.add(LiveGap(sequences: 3...3, reason: .failedAfterRetries))
    #expect(ledger.gaps.map(\.reason) == [.failedAfterRetries, .notRunning])
    #expect(ledger.gap(containing: 5)?.reason == .notRunning)
    #expect(ledger.gap(containing: 7) == nil)
  }
}
