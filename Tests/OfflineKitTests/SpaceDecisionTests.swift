import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 38, item 1: the queue's disk-space decision, made inline with `statvfs` and a
/// query between its branches before, is a value: each row of its table runs with no
/// disk, index or clock.
@Suite(.timed) struct SpaceDecisionTests {
  static let now = ContinuousClock.now
  /// 70 bytes available of 100.
  static let space = StorageSpace(available: 70, capacity: 100)

  static func decide(
    total: Int64?, bytes: Int64 = 0, waiting: Bool = false, space: StorageSpace? = space,
    margin: Int64 = 10, quota: SpaceDecision.Quota? = nil, waits: inout StorageWaits
  ) -> SpaceDecision {
    SpaceDecision.decide(
      .init(id: "a", waiting: waiting, total: total, bytes: bytes), space: space, margin: margin,
      quota: quota, waits: &waits, at: now)
  }

  @Test(arguments: [
    // total, bytes, margin: what the table says
    (total: 50 as Int64?, bytes: 0 as Int64, margin: 10 as Int64, expected: SpaceDecision.fits),
    (total: nil, bytes: 0, margin: 10, expected: .fits),
    (total: 95, bytes: 0, margin: 10, expected: .never(needed: 5, capacity: 100)),
    (total: 65, bytes: 0, margin: 10, expected: .wait),
    (total: 65, bytes: 30, margin: 10, expected: .fits),
    (total: nil, bytes: 0, margin: 71, expected: .wait),
  ])
  func aContentFitsWaitsOrNeverFits(
    total: Int64?, bytes: Int64, margin: Int64, expected: SpaceDecision
  ) {
    var waits = StorageWaits()
    #expect(Self.decide(total: total, bytes: bytes, margin: margin, waits: &waits) == expected)
    // One that waits is looked at again only later; one that never fits is forgotten.
    #expect(waits.isDue("a", at: Self.now) == (expected != .wait))
  }

  @Test func aStoreOverItsQuotaWaitsThoughTheDiskHasRoom() {
    var waits = StorageWaits()
    let full = SpaceDecision.Quota(limit: 1000, used: 980)
    #expect(Self.decide(total: 30, quota: full, waits: &waits) == .wait)
    let room = SpaceDecision.Quota(limit: 1000, used: 900)
    var other = StorageWaits()
    #expect(Self.decide(total: 30, quota: room, waits: &other) == .fits)
  }

  @Test func unreadableSpaceLetsItStart() {
    var waits = StorageWaits()
    #expect(Self.decide(total: 1 << 40, space: nil, waits: &waits) == .fits)
  }

  /// A content that started after a wait and waits for space again ran out of it: it is
  /// not started again until more is available than when it ran out.
  @Test func aContentThatRanOutWaitsForMoreThanItHadThen() {
    var waits = StorageWaits()
    waits.launch("a", at: Self.now)
    #expect(Self.decide(total: 50, waiting: true, waits: &waits) == .notYetDue)
    let later = Self.now + StorageWaits.longestDelay * 2
    let same = SpaceDecision.decide(
      .init(id: "a", waiting: true, total: 50, bytes: 0), space: Self.space, margin: 10,
      quota: nil, waits: &waits, at: later)
    #expect(same == .notYetDue, "no more space than when it ran out")
    let more = SpaceDecision.decide(
      .init(id: "a", waiting: true, total: 50, bytes: 0),
      space: StorageSpace(available: 90, capacity: 100), margin: 10, quota: nil, waits: &waits,
      at: later + StorageWaits.longestDelay * 2)
    #expect(more == .fits)
  }
}
