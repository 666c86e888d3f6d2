import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// `GET` and `POST /api/rate-limit`: the running queue's cap (issue 16, item 3).
@Suite("offline serve's rate limit call", .serialized, .timed)
struct RateLimitAPITests {
  // Pins: the API had no call to set or clear the queue's rate limit.
  @Test func aLimitSetOverTheAPIHoldsTheQueueAndClearingItLiftsIt() async throws {
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "1m"))
    let rate = 64 << 10
    let set = try await post(fixture, #"{"limit": "64k"}"#)
    #expect(set.status == 200, "\(set.text)")
    #expect(json(set)["limit"] as? Int == rate)
    #expect(fixture.manager.rateLimit?.bytesPerSecond == Int64(rate))
    #expect(json(try await Curl.fetch(fixture.url("/api/rate-limit")))["limit"] as? Int == rate)

    try TestData.writeFile(at: fixture.origin.file("held.bin"), count: 16 << 20)
    let content = try #require(
      try await fixture.manager.add([OfflineSource(url: fixture.nginx.url("/held.bin"))]).first)
    let clock = ContinuousClock()
    let started = clock.now
    try await Task.sleep(for: .seconds(2))
    let bytes = try await fixture.manager.snapshot(id: content.id).bytes
    let elapsed = started.duration(to: clock.now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    #expect(bytes > 0, "the capped download moves")
    // At most the cap over the time measured, a quarter over, plus one saved budget and one
    // part in flight; uncapped, nginx's 1 MiB/s would have given about 2 MiB.
    #expect(
      Double(bytes) <= Double(rate) * seconds * 1.25 + Double(128 << 10),
      "\(bytes) bytes in \(elapsed) at 64 KiB/s")

    let cleared = try await post(fixture, #"{"limit": null}"#)
    #expect(cleared.status == 200, "\(cleared.text)")
    #expect(json(cleared)["limit"] is NSNull)
    #expect(fixture.manager.rateLimit == nil)
    #expect(try await post(fixture, #"{"limit": "0"}"#).status == 200, "0 is no limit, as aria2")
    #expect(fixture.manager.rateLimit == nil)
    await fixture.close()
  }

  // Pins: a malformed limit must be refused with a sentence and change nothing.
  @Test func aMalformedLimitIsRefusedAndChangesNothing() async throws {
    let fixture = try await ServiceFixture()
    #expect(try await post(fixture, #"{"limit": "2M"}"#).status == 200)
    for body in [#"{"limit": "fast"}"#, #"{"limit": -5}"#, "not json", #"{"rate": "1M"}"#] {
      let refused = try await post(fixture, body)
      #expect(refused.status == 400, "\(body): \(refused.text)")
      #expect(json(refused)["kind"] as? String == "invalidRequest")
    }
    #expect(fixture.manager.rateLimit?.bytesPerSecond == 2 << 20)
    let put = try await Curl.fetch(fixture.url("/api/rate-limit"), ["-X", "DELETE"])
    #expect(put.status == 405)
    await fixture.close()
  }

  private func post(_ fixture: ServiceFixture, _ body: String) async throws -> Curl.Reply {
    try await fixture.post("/api/rate-limit", body)
  }

  private func json(_ reply: Curl.Reply) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: reply.body, options: [.fragmentsAllowed]))
      as? [String: Any] ?? [:]
  }
}
