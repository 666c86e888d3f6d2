import Foundation
import OfflineHTTP
import TestTiming
import Testing

@testable import OfflineHTTP

/// The budget arithmetic of ``RateLimiter``, at instants the test chooses (issue 13, item 5).
@Suite(.timed) struct RateLimiterTests {
  private let mebibyte = 1 << 20

  @Test func aFreshLimiterLetsTheFirstReadThroughAtOnce() {
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    #expect(limiter.pause(at: .now) == .zero)
  }

  @Test func bytesBeyondTheBudgetPauseForTheTimeTheyOwe() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    let saved = Int(RateLimiter.capacity(limiter.rate))
    limiter.charge(saved + 100 << 10, at: start)
    let pause = limiter.pause(at: start)
    // 100 KiB owed at 1 MiB/s: about 98 ms.
    #expect(pause > .milliseconds(95) && pause < .milliseconds(100), "paused \(pause)")
  }

  /// Issue 40: a player's range of a file downloading under a cap went at a share of the
  /// cap beside the download's own request, which took most of it (a seek waited 2 to 22 s
  /// at 8 MiB/s). While a request with priority carries the budget, the others wait a
  /// quarter second at a time and it alone spends the budget; then they go on as before.
  @Test func whileAPriorityRequestRunsTheOthersWait() throws {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    var player = HTTPRequest(url: try #require(URL(string: "http://origin.test/movie.mp4")))
    player.rateLimiters = [limiter]
    player.hasRatePriority = true
    var hold = RatePriorityHold(player)
    #expect(hold != nil)
    #expect(limiter.pause(at: start) == RateLimiter.longestPause, "the download waits")
    #expect(limiter.pause(at: start, priority: true) == .zero, "the player's request goes")
    hold = nil
    #expect(limiter.pause(at: start) == .zero, "the download goes on")
    player.hasRatePriority = false
    #expect(RatePriorityHold(player) == nil, "a request without priority holds nothing")
  }

  /// Issue 40 (session 36): requests paused together woke together, and the same ones won
  /// the budget every time: under a 15 kB/s cap a DASH init section of 765 bytes got nothing
  /// for 12 s while the segments after it landed. A younger turn now waits while an older
  /// one still asks, longer the more turns are before it.
  @Test func requestsThatWaitTogetherTakeTurnsTheOldestFirst() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    // 16 KiB owed at 1 MiB/s: about 16 ms.
    limiter.charge(Int(RateLimiter.capacity(limiter.rate)) + 16_384, at: start)
    let first = limiter.pause(at: start, turn: 1)
    let second = limiter.pause(at: start, turn: 2)
    let third = limiter.pause(at: start, turn: 3)
    #expect(first > .milliseconds(14) && first < .milliseconds(17), "\(first)")
    #expect(second > first && third > second, "\(first) \(second) \(third)")
    // The debt is paid: the youngest asks first, and waits for the two before it.
    let paid = start + .milliseconds(20)
    #expect(limiter.pause(at: paid, turn: 3) > .zero, "a younger turn went first")
    #expect(limiter.pause(at: paid, turn: 1) == .zero, "the oldest goes")
    limiter.leave(turn: 1)
    #expect(limiter.pause(at: paid, turn: 2) == .zero, "then the next")
  }

  /// A turn that stopped asking (its request ended, or another budget holds it) holds
  /// nobody back once it is late by more than ``RateLimiter/waiterSlack``.
  @Test func aTurnThatStoppedAskingHoldsNobodyBack() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: 16_384))
    limiter.charge(Int(RateLimiter.capacity(limiter.rate)) + 1_000, at: start)
    let pause = limiter.pause(at: start, turn: 1)
    #expect(pause > .zero)
    let later = start + pause + RateLimiter.waiterSlack + .milliseconds(1)
    #expect(limiter.pause(at: later, turn: 2) == .zero, "the gone turn holds it back")
  }

  /// ``RateTurn`` takes a turn when held back, gives it up when it receives, and a request
  /// held back again queues behind those that waited meanwhile.
  @Test func aRequestThatReceivedQueuesBehindTheOthers() throws {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    var request = HTTPRequest(url: try #require(URL(string: "http://origin.test/s.m4s")))
    request.rateLimiters = [limiter]
    let one = try #require(RateTurn(request))
    let other = try #require(RateTurn(request))
    #expect(one.pause(at: start) == .zero)
    limiter.charge(Int(RateLimiter.capacity(limiter.rate)) + 16_384, at: start)
    #expect(other.pause(at: start) > .zero, "in debt: the other waits")
    #expect(one.pause(at: start) > .zero, "and this one behind it")
    let paid = start + .milliseconds(20)
    #expect(one.pause(at: paid) > .zero, "the other waited first")
    #expect(other.pause(at: paid) == .zero)
    #expect(one.pause(at: paid) == .zero, "then this one")
    request.rateLimiters = []
    #expect(RateTurn(request) == nil, "a request without budgets takes no turn")
  }

  @Test func aLongDebtPausesAtMostAQuarterSecondAtATime() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    limiter.charge(8 * mebibyte, at: start)
    #expect(limiter.pause(at: start) == RateLimiter.longestPause)
  }

  @Test func theBudgetRefillsAtTheRate() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    let saved = Int(RateLimiter.capacity(limiter.rate))
    limiter.charge(saved + mebibyte / 2, at: start)
    #expect(limiter.pause(at: start + .milliseconds(400)) > .zero, "still owes 0.1 s")
    #expect(limiter.pause(at: start + .milliseconds(501)) == .zero, "paid off after 0.5 s")
  }

  /// No burst after a pause: an idle minute saves no more than a twentieth of a second.
  @Test func anIdleLimiterSavesOnlyATwentiethOfASecond() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(4 * mebibyte)))
    let later = start + .seconds(60)
    limiter.charge(4 * mebibyte / 20 + 1, at: later)
    #expect(limiter.pause(at: later) > .zero)
  }

  @Test func aLowRateStillSavesOneRead() {
    #expect(RateLimiter.capacity(ByteRate(bytesPerSecond: 1000)) == 16_384)
  }

  @Test func removingTheRateEndsEveryPause() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: 1000))
    limiter.charge(10 * mebibyte, at: start)
    limiter.setRate(nil)
    #expect(limiter.pause(at: .now) == .zero)
    #expect(limiter.rate == nil)
  }

  @Test func raisingTheRateShortensThePauseAndSavesNothingExtra() {
    let start = ContinuousClock.now
    let limiter = RateLimiter(ByteRate(bytesPerSecond: 1000))
    limiter.charge(20_000, at: start)
    limiter.setRate(ByteRate(bytesPerSecond: Int64(100 * mebibyte)))
    #expect(limiter.pause(at: .now + .milliseconds(1)) == .zero)
  }

  @Test func limitersAreEqualOnlyToThemselves() {
    let rate = ByteRate(bytesPerSecond: 1000)
    let one = RateLimiter(rate)
    #expect(one == one)
    #expect(one != RateLimiter(rate))
  }
}
