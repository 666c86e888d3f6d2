import TestTiming

#if canImport(CCurl)
  import Foundation
  import Testing

  @testable import OfflineHTTP

  /// How much libcurl reads at once for a request that rate limiters pace.
  @Suite(.timed) struct CurlPacedBufferTests {
    /// Pins the rate pacing's CPU (issue 14, `get --limit-rate 20M` at 15 s of CPU per GiB
    /// against curl's 2.3 s): a paced request pauses about once a read, and libcurl copied
    /// what was left of its 512 KiB buffer at every pause (26 % of the profile in memmove).
    @Test func aPacedRequestReadsAtMostSixteenKiBAtOnce() {
      var request = HTTPRequest(url: URL(string: "http://127.0.0.1/file")!)
      request.rateLimiters = [RateLimiter(ByteRate(bytesPerSecond: 20 << 20))]
      #expect(CurlCall.receiveBufferSize(for: request, configured: 512 << 10) == 16 << 10)
      #expect(CurlCall.receiveBufferSize(for: request, configured: 8 << 10) == 8 << 10)
    }

    /// A request without a cap keeps the configured buffer: the fast path stays fast.
    @Test func anUnpacedRequestKeepsTheConfiguredBuffer() {
      let request = HTTPRequest(url: URL(string: "http://127.0.0.1/file")!)
      #expect(CurlCall.receiveBufferSize(for: request, configured: 512 << 10) == 512 << 10)
    }
  }
#endif
