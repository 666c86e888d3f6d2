import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a steering reload that fails (an HTTP error, a body that is no steering
/// manifest, a stalled server) is told to the log sink with its URL, redacted, and the
/// reason; the last good priority stays and the next reload is one `TTL` of the last good
/// manifest later. One line per run of failures, and one when the manifest loads again (the
/// rule HLS and DASH share: before it, HLS logged every failure and DASH no recovery). On a
/// manual clock: nothing waits for real time.
@Suite(.timed) struct HLSSteeringReloadLogTests {
  @Test func theFirstFailedReloadOfARunIsLoggedAndTheLastGoodManifestStays() async throws {
    let clock = ManualClock()
    let transport = ScriptedTransport()
    let reload = URL(string: "http://steer.test/a/reload.json")!
    let good = Data(#"{"VERSION":1,"TTL":60,"PATHWAY-PRIORITY":["A","B"]}"#.utf8)
    transport.enqueue(
      reload, .status(503), .ok(good), .ok(Data("<html>not json</html>".utf8)), .ok(good),
      .failing(.stalled), .status(503),
      .ok(Data(#"{"VERSION":1,"TTL":30,"PATHWAY-PRIORITY":["B","A"]}"#.utf8)))
    let (session, failover, piece) = HLSSteeringReloadTests.twoPathways(transport, clock: clock)
    let schedule = try HLSSteeringReloadTests.schedule(
      .hls,
      loaded: #"{"VERSION":1,"TTL":60,"RELOAD-URI":"reload.json?token=secret","KEY":["A","B"]}"#,
      at: clock.instant)
    let lines = Locked<[String]>([])
    let reloader = SteeringReloader(
      session: session, failover: failover, locations: ["A", "B"],
      log: { line in lines.withLock { $0.append(line) } })
    let task = Task { await reloader.run(schedule) }
    defer { task.cancel() }

    try await clock.waitForSleepers(count: 1)
    // Each row: one more request; what the log heard since the row before.
    for (count, said) in [
      (1, "503"), (2, "loads again"), (3, "not a steering manifest"),
      (4, "loads again"), (5, "steer.test"), (6, nil),
    ] {
      clock.advance(by: .seconds(60))
      try await clock.waitForSleepers(count: 1)
      #expect(transport.requests.count == count)
      let logged = lines.withLock { $0 }
      #expect(logged.count == min(count, 5), "\(logged)")
      #expect(clock.sleepers == [.seconds(60)], "the last good TTL")
      #expect(failover.order(for: piece).map(\.source) == [0, 1], "the last good priority")
      guard let said else { continue }  // a second failure in a row: not logged again
      let line = try #require(logged.last)
      #expect(line.contains("http://steer.test/a/reload.json?…"), "\(line)")
      #expect(!line.contains("secret"), "the URL is redacted: \(line)")
      #expect(line.contains(said), "\(line)")
      if !said.contains("loads again") {
        #expect(line.contains("did not load"), "\(line)")
        #expect(line.contains("the last good priority (A, B) stays"), "\(line)")
        #expect(line.contains("asked again in 60 s"), "\(line)")
      }
    }

    clock.advance(by: .seconds(60))
    try await clock.waitForSleepers(count: 1)
    #expect(transport.requests.count == 7)
    let logged = lines.withLock { $0 }
    #expect(logged.count == 6, "the recovery is logged once: \(logged)")
    #expect(logged.last?.contains("loads again; its priority (B, A) applies") == true)
    #expect(failover.order(for: piece).map(\.source) == [1, 0])
    #expect(clock.sleepers == [.seconds(30)], "the new manifest's TTL")
    task.cancel()
    await task.value
  }

  /// The first request, when the download starts, is logged the same way when it fails.
  @Test func aFirstRequestThatFailsIsLogged() async throws {
    let transport = ScriptedTransport()
    let master = URL(string: "http://cdn-a.test/master.m3u8")!
    transport.enqueue(URL(string: "http://steer.test/s.json")!, .status(404))
    let session = ContentSession(url: master, transport: transport)
    let text = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="http://steer.test/s.json?k=secret",PATHWAY-ID="A"
      #EXT-X-STREAM-INF:BANDWIDTH=1,PATHWAY-ID="A"
      a.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=1,PATHWAY-ID="B"
      http://cdn-b.test/a.m3u8
      """
    let entry = ParsedPlaylist(playlist: try PlaylistParser.parse(text), variables: [:])
    let lines = Locked<[String]>([])
    let (steered, schedule) = await HLSSteering.steered(
      entry, from: master, session: session, log: { line in lines.withLock { $0.append(line) } })
    #expect(steered.playlist == entry.playlist)
    #expect(schedule?.due != nil)
    #expect(schedule?.isFailing == true, "the reloads go on in the run this failure began")
    #expect(
      transport.requests.map(\.url.absoluteString) == [
        "http://steer.test/s.json?k=secret&_HLS_pathway=A"
      ], "the first request names the pathway in use")
    let logged = lines.withLock { $0 }
    #expect(logged.count == 1)
    #expect(logged.first?.contains("http://steer.test/s.json?…") == true, "\(logged)")
    #expect(logged.first?.contains("404") == true && logged.first?.contains("secret") == false)
  }
}
