import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a steering manifest is asked again after its `TTL` during a long
/// download, at its `RELOAD-URI`, with the pathway in use and the throughput; a new
/// priority moves the pieces that start next to its first pathway, and a steering server
/// that fails keeps the last good priority. The one reloader HLS and DASH share, run with
/// both protocols' names on a manual clock: no test waits for real time to pass. (The
/// schedule's decisions are `SteeringScheduleTests`.)
@Suite(.timed) struct HLSSteeringReloadTests {
  static let server = URL(string: "http://steer.test/a/steering.json")!

  /// A schedule for `kind` that loaded `json` (`KEY` standing for its priority key).
  static func schedule(
    _ kind: SteeringScheduleTests.Kind, loaded json: String, at now: ContinuousClock.Instant
  ) throws -> SteeringSchedule {
    var schedule = SteeringSchedule(serverURL: server, names: kind.names)
    let text = json.replacingOccurrences(of: "KEY", with: kind.names.priorityKey)
    let manifest = try #require(
      SteeringSchedule.manifest(of: Data(text.utf8), names: kind.names))
    schedule.didLoad(manifest, at: now)
    return schedule
  }

  /// A session on `transport` and `clock`, and a stream whose one piece is on pathway A
  /// (source 0) and B (source 1).
  static func twoPathways(_ transport: ScriptedTransport, clock: ManualClock) -> (
    ContentSession, StreamFailover, StreamPiece
  ) {
    let session = ContentSession(
      url: URL(string: "http://cdn-a.test/v.m3u8")!, transport: transport, clock: clock)
    let a = URL(string: "http://cdn-a.test/s1.ts")!
    let b = URL(string: "http://cdn-b.test/s1.ts")!
    let piece = StreamPiece(
      remote: a, local: "video/s1.ts", slice: nil, estimatedBytes: 1000, alternates: [b])
    return (session, StreamFailover(names: [a, b]), piece)
  }

  /// Nothing is asked before the TTL; then the new priority puts pathway B first for the
  /// next piece; a 503 after that keeps B first.
  @Test(arguments: SteeringScheduleTests.Kind.allCases)
  func aNewPriorityMovesTheNextPiecesToItsFirstPathway(_ kind: SteeringScheduleTests.Kind)
    async throws
  {
    let clock = ManualClock()
    let transport = ScriptedTransport()
    let reload = URL(string: "http://steer.test/a/reload.json")!
    let key = kind.names.priorityKey
    transport.enqueue(
      reload, .ok(Data(#"{"VERSION":1,"TTL":60,"\#(key)":["B","A"]}"#.utf8)), .status(503))
    let (session, failover, piece) = Self.twoPathways(transport, clock: clock)
    let schedule = try Self.schedule(
      kind, loaded: #"{"VERSION":1,"TTL":60,"RELOAD-URI":"reload.json","KEY":["A","B"]}"#,
      at: clock.instant)
    let reloader = SteeringReloader(session: session, failover: failover, locations: ["A", "B"])
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
    let (pathway, throughput) = (kind.names.pathwayParameter, kind.names.throughputParameter)
    #expect(
      transport.requests.map(\.url.absoluteString) == [
        "http://steer.test/a/reload.json?\(pathway)=A&\(throughput)=100000"
      ])

    clock.advance(by: .seconds(60))
    try await clock.waitForSleepers(count: 1)
    #expect(transport.requests.count == 2)
    #expect(transport.requests.last?.url.query == "\(pathway)=B")
    #expect(failover.order(for: piece).map(\.source) == [1, 0], "a 503 keeps the last priority")
    task.cancel()
    await task.value
  }
}
