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
