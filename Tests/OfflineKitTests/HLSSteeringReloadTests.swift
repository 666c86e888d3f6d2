import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a steering manifest is asked again after its `TTL` during a long
/// download, at its `RELOAD-URI`, with `_HLS_pathway` and `_HLS_throughput`; a new
/// `PATHWAY-PRIORITY` moves the pieces that start next to its first pathway, and a steering
/// server that fails keeps the last good priority. The TTL decisions are read on a manual
/// clock: no test waits for real time to pass.
@Suite(.timed) struct HLSSteeringReloadTests {
  static let server = URL(string: "http://steer.test/a/steering.json")!

  static func manifest(_ json: String) throws -> HLSSteering.Manifest {
    try #require(HLSSteering.manifest(of: Data(json.utf8)))
  }

  @Test func aManifestIsAskedAgainAfterItsTTLAtItsReloadURI() throws {
    let clock = ManualClock()
    var schedule = HLSSteeringSchedule(serverURL: Self.server)
    let changed = schedule.didLoad(
      try Self.manifest(
        #"{"VERSION":1,"TTL":10,"RELOAD-URI":"next/s.json?session=1","PATHWAY-PRIORITY":["A","B"]}"#
      ), at: clock.instant)
    #expect(changed)
    clock.advance(by: .milliseconds(9_999))
    #expect(!schedule.isDue(at: clock.instant))
    clock.advance(by: .milliseconds(1))
    #expect(schedule.isDue(at: clock.instant))
    #expect(
      schedule.request(pathway: "B", throughput: 800_000).absoluteString
        == "http://steer.test/a/next/s.json?session=1&_HLS_pathway=B&_HLS_throughput=800000")
    #expect(
      schedule.request(pathway: "A", throughput: nil).absoluteString
        == "http://steer.test/a/next/s.json?session=1&_HLS_pathway=A",
      "no throughput before one is measured")
  }

  @Test func aManifestWithoutTTLIsAskedAgainAfterFiveMinutesAtTheSameURL() throws {
    let clock = ManualClock()
    var schedule = HLSSteeringSchedule(serverURL: Self.server)
    schedule.didLoad(
      try Self.manifest(#"{"VERSION":1,"PATHWAY-PRIORITY":["A"]}"#), at: clock.instant)
    clock.advance(by: .seconds(299))
    #expect(!schedule.isDue(at: clock.instant))
    clock.advance(by: .seconds(1))
    #expect(schedule.isDue(at: clock.instant))
    #expect(schedule.url == Self.server)
  }

  @Test func aRelativeReloadURIIsResolvedAgainstThePreviousOne() throws {
    var schedule = HLSSteeringSchedule(serverURL: Self.server)
    let now = ManualClock().instant
    schedule.didLoad(
      try Self.manifest(#"{"VERSION":1,"TTL":5,"RELOAD-URI":"b/1.json","PATHWAY-PRIORITY":["A"]}"#),
      at: now)
    schedule.didLoad(
      try Self.manifest(#"{"VERSION":1,"TTL":5,"RELOAD-URI":"2.json","PATHWAY-PRIORITY":["A"]}"#),
      at: now)
    #expect(schedule.url.absoluteString == "http://steer.test/a/b/2.json")
    schedule.didLoad(
      try Self.manifest(
        #"{"VERSION":1,"TTL":5,"RELOAD-URI":"file:///etc/passwd","PATHWAY-PRIORITY":["A"]}"#),
      at: now)
    #expect(
      schedule.url.absoluteString == "http://steer.test/a/b/2.json", "only http(s) is followed")
  }

  @Test func aFailingSteeringServerKeepsTheLastGoodPriority() throws {
    let clock = ManualClock()
    var schedule = HLSSteeringSchedule(serverURL: Self.server)
    schedule.didLoad(
      try Self.manifest(#"{"VERSION":1,"TTL":20,"PATHWAY-PRIORITY":["B","A"]}"#), at: clock.instant)
    schedule.didFail(
      Transfer.Error(.status(503, retryAfter: nil), url: Self.server, destination: ""),
      at: clock.instant)
    #expect(schedule.priority == ["B", "A"])
    #expect(schedule.due == clock.instant + .seconds(20), "asked again one TTL later")
    let changed = schedule.didLoad(nil, at: clock.instant)
    #expect(!changed, "a body that is not a manifest")
    #expect(schedule.priority == ["B", "A"])
    schedule.didFail(
      Transfer.Error(.status(429, retryAfter: .seconds(90)), url: Self.server, destination: ""),
      at: clock.instant)
    #expect(schedule.due == clock.instant + .seconds(90), "Retry-After is honoured")
    schedule.didFail(
      Transfer.Error(.status(410, retryAfter: nil), url: Self.server, destination: ""),
      at: clock.instant)
    #expect(schedule.due == nil, "410: never asked again")
    #expect(schedule.priority == ["B", "A"])
  }

  @Test func aZeroTTLIsNotAskedInALoop() throws {
    let clock = ManualClock()
    var schedule = HLSSteeringSchedule(serverURL: Self.server)
    schedule.didLoad(
      try Self.manifest(#"{"VERSION":1,"TTL":0.001,"PATHWAY-PRIORITY":["A"]}"#), at: clock.instant)
    #expect(schedule.due == clock.instant + HLSSteeringSchedule.shortestTTL)
  }

  @Test func theSourcesFollowTheNewPriority() {
    #expect(HLSSteeringReloader.order(of: ["A", "B", "C"], by: ["C", "A"]) == [2, 0, 1])
    #expect(HLSSteeringReloader.order(of: ["A", "B"], by: ["X"]) == [0, 1])
  }

  /// The reloader on a manual clock: nothing is asked before the TTL; then the new
  /// priority puts pathway B first for the next piece; a 503 after that keeps B first.
  @Test func aNewPriorityMovesTheNextPiecesToItsFirstPathway() async throws {
    let clock = ManualClock()
    let transport = ScriptedTransport()
    let reload = URL(string: "http://steer.test/a/reload.json")!
    transport.enqueue(
      reload,
      .ok(Data(#"{"VERSION":1,"TTL":60,"PATHWAY-PRIORITY":["B","A"]}"#.utf8)),
      .status(503))
    let session = ContentSession(
      url: URL(string: "http://cdn-a.test/v.m3u8")!, transport: transport, clock: clock)
    let a = URL(string: "http://cdn-a.test/s1.ts")!
    let b = URL(string: "http://cdn-b.test/s1.ts")!
    let failover = StreamFailover(names: [a, b])
    let piece = StreamPiece(
      remote: a, local: "video/s1.ts", slice: nil, estimatedBytes: 1000, alternates: [b])
    var schedule = HLSSteeringSchedule(serverURL: Self.server)
    schedule.didLoad(
      try Self.manifest(
        #"{"VERSION":1,"TTL":60,"RELOAD-URI":"reload.json","PATHWAY-PRIORITY":["A","B"]}"#),
      at: clock.instant)
    let reloader = HLSSteeringReloader(session: session, failover: failover, pathways: ["A", "B"])
    let task = Task { await reloader.run(schedule) }
    defer { task.cancel() }

    try await clock.waitForSleepers(count: 1)
    #expect(clock.sleepers == [.seconds(60)])
    #expect(transport.requests.isEmpty, "nothing asked before the TTL")
    #expect(failover.order(for: piece).map(\.source) == [0, 1])
    failover.didServe(0, bytes: 750_000)
    clock.advance(by: .seconds(60))
    try await clock.waitForSleepers(count: 1)  // asked, and asleep until the next TTL
    #expect(failover.order(for: piece).map(\.source) == [1, 0], "B first for the next piece")
    #expect(
      transport.requests.map(\.url.absoluteString) == [
        "http://steer.test/a/reload.json?_HLS_pathway=A&_HLS_throughput=100000"
      ])

    clock.advance(by: .seconds(60))
    try await clock.waitForSleepers(count: 1)
    #expect(transport.requests.count == 2)
    #expect(transport.requests.last?.url.query == "_HLS_pathway=B")
    #expect(failover.order(for: piece).map(\.source) == [1, 0], "a 503 keeps the last priority")
    task.cancel()
    await task.value
  }
}
