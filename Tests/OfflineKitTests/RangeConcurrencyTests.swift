import TestTiming
import Testing

@testable import OfflineKit

/// The decision of how many connections fetch one file's ranges (issue 14, the capped
/// origin): one rule per test, no I/O. Before it, a segmented download kept the count it
/// started with, so an origin capping each request at 40 MiB/s held eight connections to
/// 320 MiB/s while the disk could take more.
@Suite(.timed) struct RangeConcurrencyTests {
  let plenty: Int64 = 1 << 30
  let mib = Double(1 << 20)

  func decision(start: Int = 8, maximum: Int = 16) -> RangeConcurrency {
    RangeConcurrency(.init(start: start, maximum: maximum))
  }

  @Test func startsAtTheStartCountNoHigherThanTheMaximum() {
    #expect(decision(start: 8, maximum: 16).limit == 8)
    #expect(decision(start: 8, maximum: 4).limit == 4)
  }

  @Test func aFixedCountNeverChanges() {
    var fixed = decision(start: 8, maximum: 8)
    #expect(fixed.settled)
    #expect(fixed.didMeasure(bytesPerSecond: 320 * mib, remaining: plenty) == 8)
  }

  @Test func theFirstWindowOpensAStepMore() {
    var growing = decision()
    #expect(growing.didMeasure(bytesPerSecond: 320 * mib, remaining: plenty) == 12)
    #expect(!growing.settled)
  }

  /// Four added to eight at 320 MiB/s must bring at least half of 4 × 40 MiB/s.
  @Test func aWindowWhoseAddedConnectionsBroughtHalfTheirShareOpensAnotherStep() {
    var growing = decision(maximum: 32)
    _ = growing.didMeasure(bytesPerSecond: 320 * mib, remaining: plenty)
    #expect(growing.didMeasure(bytesPerSecond: 400 * mib, remaining: plenty) == 16)
    #expect(!growing.settled)
  }

  @Test func aWindowThatGainedLessSettlesWhereItIs() {
    var growing = decision(maximum: 32)
    _ = growing.didMeasure(bytesPerSecond: 320 * mib, remaining: plenty)
    #expect(growing.didMeasure(bytesPerSecond: 390 * mib, remaining: plenty) == 12)
    #expect(growing.settled)
    #expect(growing.didMeasure(bytesPerSecond: 900 * mib, remaining: plenty) == 12)
  }

  /// An origin without a cap (or a disk that is the limit) shows no rise at all.
  @Test func aWindowSlowerThanTheOneBeforeSettles() {
    var growing = decision()
    _ = growing.didMeasure(bytesPerSecond: 600 * mib, remaining: plenty)
    #expect(growing.didMeasure(bytesPerSecond: 550 * mib, remaining: plenty) == 12)
    #expect(growing.settled)
  }

  @Test func aStepStopsAtTheMaximumAndSettles() {
    var growing = decision(start: 8, maximum: 10)
    #expect(growing.didMeasure(bytesPerSecond: 320 * mib, remaining: plenty) == 10)
    #expect(growing.settled)
  }

  /// 12 connections would have under 8 MiB each of the 90 MiB left.
  @Test func tooLittleLeftForEachConnectionAfterAStepSettles() {
    var growing = decision()
    #expect(growing.didMeasure(bytesPerSecond: 320 * mib, remaining: 90 << 20) == 8)
    #expect(growing.settled)
  }
}
