import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Bodies paced by ``RateLimiter``s whatever the transport (issue 18, item 1): pins that
/// ``URLSessionTransport`` ignored the limiters a request carries. The checks are lower
/// bounds: N bytes at a cap of R do not reach the delegate in less than 0.8 N/R.
@Suite(.timed) struct ConformanceRateLimitTests {
  private let mebibyte = 1 << 20

  @Test(arguments: TransportFactory.all)
  func aCappedRequestReachesItsDelegateNoFasterThanItsCap(
    _ factory: TransportFactory
  ) async throws {
    let nginx = try NginxFixture(files: ["capped.bin": (3 << 20, 4)])
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(mebibyte)))
    let delegate = RecordingDelegate()
    let clock = ContinuousClock()
    let started = clock.now
    let head = try await factory.make().perform(
      HTTPRequest(url: nginx.url("/capped.bin"), rateLimiters: [limiter]), delegate: delegate)
    let elapsed = started.duration(to: clock.now)

    #expect(head.status == 200)
    #expect(delegate.body == TestData.bytes(count: 3 << 20, seed: 4), "every byte, in order")
    // 3 MiB at 1 MiB/s: 3 s; 0.8 of that is 2.4 s.
    #expect(elapsed > .milliseconds(2_400), "3 MiB at 1 MiB/s took \(elapsed)")
  }

  /// One limiter on two requests of one transport caps them together, not each.
  @Test(arguments: TransportFactory.all)
  func twoRequestsSharingALimiterShareItsCap(_ factory: TransportFactory) async throws {
    let nginx = try NginxFixture(files: ["a.bin": (2 << 20, 5), "b.bin": (2 << 20, 6)])
    let limiter = RateLimiter(ByteRate(bytesPerSecond: Int64(2 * mebibyte)))
    let transport = factory.make()
    let first = RecordingDelegate(keepsBody: false)
    let second = RecordingDelegate(keepsBody: false)
    let clock = ContinuousClock()
    let started = clock.now
    async let a = transport.perform(
      HTTPRequest(url: nginx.url("/a.bin"), rateLimiters: [limiter]), delegate: first)
    async let b = transport.perform(
      HTTPRequest(url: nginx.url("/b.bin"), rateLimiters: [limiter]), delegate: second)
    let heads = try await [a, b]
    let elapsed = started.duration(to: clock.now)

    #expect(heads.map(\.status) == [200, 200])
    #expect(first.byteCount + second.byteCount == 4 << 20)
    // 4 MiB together at 2 MiB/s: 2 s (0.8 of it 1.6 s); each alone at the cap would take 1 s.
    #expect(elapsed > .milliseconds(1_600), "4 MiB through a 2 MiB/s cap took \(elapsed)")
  }
}
