import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// The ranges of a segmented download's first plan begin on 1 MiB boundaries, so devices
/// behind one cache ask it for the same ranges (issue 43, docs/CachingProxy.md).
@Suite(.timed) struct PlanAlignmentTests {
  @Test(arguments: [(Int64(24 << 20) + 12_345, 5), (Int64(1 << 30) + 1, 8), (Int64(9 << 20), 3)])
  func aPlansRangesBeginOnMebibyteBoundariesAndCoverTheFile(total: Int64, count: Int) {
    let ranges = SegmentedTransfer.split(total, into: count)
    #expect(ranges.count == count)
    #expect(ranges.allSatisfy { $0.start % SegmentedTransfer.planAlignment == 0 })
    #expect(ranges.first?.start == 0 && ranges.last?.end == total)
    #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.end == $1.start })
  }

  @Test func aFileShorterThanItsConnectionsTimesAMebibyteIsSplitEvenly() {
    let ranges = SegmentedTransfer.split(3 << 20, into: 4)
    #expect(ranges.map(\.end) == [786_432, 1_572_864, 2_359_296, 3_145_728])
  }
}
