import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Bodies paced by ``RateLimiter``s against real nginx (issue 13, item 5). The checks are
/// lower bounds (a cap never lets bytes through faster than it allows) and bounded waits;
/// how close to the cap a long run stays is measured in `benchmarks/limit-rate.sh`.
@Suite(.timed) struct CurlTransportRateLimitTests {
  private let mebibyte = 1 << 20

  @Test func aCappedRequestReceivesNoFasterThanItsCap() async throws {
    let nginx = try NginxFixture(files: ["capped.bin": (3 << 20, 4)])
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    let delegate = RecordingDelegate()
    let clock = ContinuousClock()
    let started = clock.now
    let head = try await CurlTransport().perform(
      HTTPRequest(url: nginx.url("/capped.bin"), rateLimiters: [limiter]), delegate: delegate)
    let elapsed = started.duration(to: clock.now)

    #expect(head.status == 200)
    #expect(delegate.body == TestData.bytes(count: 3 << 20, seed: 4), "every byte, in order")
    // 3 MiB at 1 MiB/s, less the 52 KiB saved at the start: about 2.95 s.
    #expect(elapsed > .milliseconds(2_500), "3 MiB at 1 MiB/s took \(elapsed)")
  }

  /// One limiter on two requests caps them together, not each.
  @Test func twoRequestsSharingALimiterShareItsCap() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (2 << 20, 5), "b.bin": (2 << 20, 6)])
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(2 * mebibyte)))
    let transport = CurlTransport()
    let clock = ContinuousClock()
    let started = clock.now
    async let first = transport.perform(
      HTTPRequest(url: nginx.url("/a.bin"), rateLimiters: [limiter]),
      delegate: RecordingDelegate(keepsBody: false))
    async let second = transport.perform(
      HTTPRequest(url: nginx.url("/b.bin"), rateLimiters: [limiter]),
      delegate: RecordingDelegate(keepsBody: false))
    let heads = try await [first, second]
    let elapsed = started.duration(to: clock.now)

    #expect(heads.map(\.status) == [200, 200])
    // 4 MiB together at 2 MiB/s: about 2 s; each alone at the cap would take 1 s.
    #expect(elapsed > .milliseconds(1_700), "4 MiB through a 2 MiB/s cap took \(elapsed)")
  }

  /// A cap removed while a request is paced lets it go on at full speed at once.
  @Test func removingTheCapMidwayLetsTheRestArriveAtOnce() async throws {
    let size = 32 << 20
    let nginx = try NginxFixture(files: ["long.bin": (size, 7)])
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte / 2)))
    let delegate = WatchedDelegate()
    let transfer = Task {
      try await CurlTransport().perform(
        HTTPRequest(url: nginx.url("/long.bin"), rateLimiters: [limiter]), delegate: delegate)
    }
    defer { transfer.cancel() }
    #expect(await delegate.waitForBytes(atLeast: 256 << 10), "the capped transfer moves")
    #expect(delegate.byteCount < 4 << 20, "still capped: \(delegate.byteCount) bytes")

    limiter.setRate(nil)
    // At the old cap the remaining 31.75 MiB would take over a minute.
    #expect(await delegate.waitForBytes(atLeast: size, limit: .seconds(20)))
    let head = try await transfer.value
    #expect(head.status == 200)
  }

  /// A request without limiters is not slowed by a capped one beside it.
  @Test func aCapOnOneRequestLeavesTheOthersAlone() async throws {
    let nginx = try NginxFixture(files: ["slow.bin": (16 << 20, 8), "free.bin": (8 << 20, 9)])
    let transport = CurlTransport()
    let slowDelegate = WatchedDelegate()
    let capped = Task {
      try await transport.perform(
        HTTPRequest(
          url: nginx.url("/slow.bin"),
          rateLimiters: [RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte / 4)))]),
        delegate: slowDelegate)
    }
    defer { capped.cancel() }
    let free = RecordingDelegate(keepsBody: false)
    let head = try await transport.perform(
      HTTPRequest(url: nginx.url("/free.bin")), delegate: free)

    #expect(head.status == 200)
    #expect(free.byteCount == 8 << 20)
    #expect(slowDelegate.byteCount < 4 << 20, "the capped one stayed capped")
  }
}
