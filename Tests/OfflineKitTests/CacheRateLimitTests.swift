import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The cache's requests take the content's rate limit (issue 13, item 5).
@Suite(.timed) struct CacheRateLimitTests {
  /// Pins: a stale entry's conditional request went out without the rate limit, so a
  /// changed file came back at full speed past `--limit-rate`; it now carries a budget at
  /// the options' rate, as the first fetch does.
  @Test func aRevalidationIsPacedByTheRateLimitAsTheFirstFetchIs() async throws {
    let fixture = try CacheFixture(files: ["a.bin": 50_000])
    let transport = RecordingTransport()
    var options = RequestOptions()
    options.rateLimit = ByteRate(bytesPerSecond: 4 << 20)
    let cache = try FileCache(
      store: fixture.store,
      configuration: FileCache.Configuration(
        maximumAge: .zero, minimumFreeSpace: 0, requestOptions: options),
      transport: transport)
    let url = fixture.nginx.url("/a.bin")
    _ = try await cache.data(for: url)
    try fixture.serve("a.bin", size: 60_000, seed: 99)
    let again = try await cache.data(for: url)
    #expect(again.value.count == 60_000)
    let requests = transport.requests.withLock { $0 }
    #expect(requests.count >= 2)
    for request in requests {
      #expect(
        request.rateLimiters.map(\.rate) == [ByteRate(bytesPerSecond: 4 << 20)],
        "\(request.method) \(request.headers.map(\.name))")
    }
  }
}
