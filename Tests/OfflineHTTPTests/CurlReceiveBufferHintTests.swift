import TestTiming

#if canImport(CCurl)
  import Foundation
  import Testing

  @testable import OfflineHTTP

  /// How much libcurl reads at once for a request that asks for a smaller receive buffer.
  @Suite(.timed) struct CurlReceiveBufferHintTests {
    /// Pins issue 14 (HTTP/2 peak RSS 52 to 69 MiB with 64 stream pieces in flight, each
    /// with a 512 KiB buffer): a request's own hint is what `CURLOPT_BUFFERSIZE` gets.
    @Test func aRequestAskingForASmallerBufferGetsIt() {
      var request = HTTPRequest(url: URL(string: "http://127.0.0.1/seg1.ts")!)
      request.receiveBufferSize = 64 << 10
      #expect(CurlCall.receiveBufferSize(for: request, configured: 512 << 10) == 64 << 10)
    }

    /// A hint never raises the configured buffer, never drops below libcurl's 1 KiB
    /// minimum, and a paced request still reads at most 16 KiB at once.
    @Test func aHintOnlyLowersTheBufferWithinLibcurlsBounds() {
      var request = HTTPRequest(url: URL(string: "http://127.0.0.1/seg1.ts")!)
      request.receiveBufferSize = 4 << 20
      #expect(CurlCall.receiveBufferSize(for: request, configured: 512 << 10) == 512 << 10)
      request.receiveBufferSize = 10
      #expect(CurlCall.receiveBufferSize(for: request, configured: 512 << 10) == 1 << 10)
      request.receiveBufferSize = 64 << 10
      request.rateLimiters = [RateLimiter(ByteRate(bytesPerSecond: 1 << 20))]
      #expect(CurlCall.receiveBufferSize(for: request, configured: 512 << 10) == 16 << 10)
    }
  }
#endif
