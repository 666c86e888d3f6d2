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
/// manifest later. On a manual clock: nothing waits for real time.
@Suite(.timed) struct HLSSteeringReloadLogTests {
  @Test func aFailedReloadIsLoggedAndTheLastGoodManifestStays() async throws {
    let clock = ManualClock()
    let transport = ScriptedTransport()
    let reload = URL(string: "http://steer.test/a/reload.json")!
    transport.enqueue(
      reload, .status(503), .ok(Data("<html>not json</html>".utf8)), .failing(.stalled),
      .ok(Data(#"{"VERSION":1,"TTL":30,"PATHWAY-PRIORITY":["B","A"]}"#.utf8)))
    let session = ContentSession(
      url: URL(string: "http://cdn-a.test/v.m3u8")!, transport: transport, clock: clock)
    let a = URL(string: "http://cdn-a.test/s1.ts")!
    let b = URL(string: "http://cdn-b.test/s1.ts")!
    let failover = StreamFailover(names: [a, b])
    let piece = StreamPiece(
      remote: a, local: "video/s1.ts", slice: nil, estimatedBytes: 1000, alternates: [b])
    var schedule = HLSSteeringSchedule(serverURL: HLSSteeringReloadTests.server)
    schedule.didLoad(
      try HLSSteeringReloadTests.manifest(
        #"{"VERSION":1,"TTL":60,"RELOAD-URI":"reload.json?token=secret","PATHWAY-PRIORITY":["A","B"]}"#
      ),
      at: clock.instant)
    let lines = Locked<[String]>([])
    let reloader = HLSSteeringReloader(
      session: session, failover: failover, pathways: ["A", "B"],
      log: { line in lines.withLock { $0.append(line) } })
    let task = Task { await reloader.run(schedule) }
    defer { task.cancel() }

    try await clock.waitForSleepers(count: 1)
    for (count, reason) in [
      (1, "503"), (2, "not a steering manifest"), (3, "steer.test"),
    ] {
      clock.advance(by: .seconds(60))
      try await clock.waitForSleepers(count: 1)
      #expect(transport.requests.count == count)
      let logged = lines.withLock { $0 }
      #expect(logged.count == count, "\(logged)")
      let line = try #require(logged.last)
      #expect(line.contains("http://steer.test/a/reload.json?…"), "\(line)")
      #expect(!line.contains("secret"), "the URL is redacted: \(line)")
      #expect(line.contains(reason), "\(line)")
      #expect(line.contains("asked again in 60 s"), "\(line)")
      #expect(clock.sleepers == [.seconds(60)], "the last good TTL")
      #expect(failover.order(for: piece).map(\.source) == [0, 1], "the last good priority")
    }

    clock.advance(by: .seconds(60))
    try await clock.waitForSleepers(count: 1)
    #expect(transport.requests.count == 4)
    #expect(lines.withLock { $0.count } == 3, "a good reload is not logged")
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
