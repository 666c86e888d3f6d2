import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3, through the queue: a steered DASH download's sources are kept with its
/// content like a file's mirrors (what `offline info` and `ls` show), and a steering server
/// that fails is told to the manager's log sink, naming the content.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct DASHSteeringQueueTests {
  typealias Tests = DASHSteeringEndToEndTests

  /// Runs the presentation of `cdns` through a manager whose log goes to `logged`; returns
  /// the content's kept sources.
  func queued(_ cdns: StreamFailoverTests.TwoCDNs, logged: Locked<[OfflineLogMessage]>)
    async throws -> [Transfer.SourceReport]?
  {
    let folder = try TemporaryDirectory(prefix: "offlinekit-steering-queue")
    var configuration = ManagerFixture.configuration()
    configuration.log = { message in logged.withLock { $0.append(message) } }
    let manager = try OfflineManager(
      directory: folder.url.appending(path: "store"), configuration: configuration)
    let source = OfflineSource(url: cdns.nginx.url("/manifest.mpd"), id: "d")
    _ = try await manager.add([source], configuration: DownloadConfiguration())
    #expect(try await runUntilIdle(manager, timeout: .seconds(90)))
    let content = try await manager.content(id: "d")
    #expect(try await content.state == .downloaded)
    let sources = try await content.snapshot.sources
    await manager.stop(suspendingRunning: false)
    return sources
  }

  @Test func theServiceLocationsAreKeptAsTheContentsSourcesSteeredFirst() async throws {
    let cdns = try await StreamFailoverTests.TwoCDNs(dash: .timeline)
    try Tests.writeManifest(in: cdns, steering: #"queryBeforeStart="true""#)
    try Tests.writeSteering(
      #"{"VERSION":1,"TTL":300,"SERVICE-LOCATION-PRIORITY":["beta","alpha"]}"#, in: cdns)
    let logged = Locked<[OfflineLogMessage]>([])
    let sources = try #require(try await queued(cdns, logged: logged))
    #expect(sources.map(\.url.path) == ["/cdn2", "/cdn1"], "\(sources)")
    #expect(sources.map(\.isPrimary) == [true, false])
    #expect(sources.first?.bytes ?? 0 > 0 && sources.last?.bytes == 0, "\(sources)")
    let steeringLines = logged.withLock { $0 }.filter { $0.message.contains("steering") }
    #expect(steeringLines.isEmpty, "\(steeringLines)")
    cdns.nginx.stop(graceful: false)
  }

  @Test func aFailingSteeringServerIsToldToTheLogNamingTheContent() async throws {
    let cdns = try await StreamFailoverTests.TwoCDNs(dash: .timeline)
    try Tests.writeManifest(in: cdns, steering: #"queryBeforeStart="true""#)
    let logged = Locked<[OfflineLogMessage]>([])
    let sources = try #require(try await queued(cdns, logged: logged))
    #expect(sources.map(\.url.path) == ["/cdn1", "/cdn2"], "the MPD's order: \(sources)")
    let lines = logged.withLock { $0 }.filter { $0.message.contains("steering") }
    #expect(lines.count == 1, "\(logged.withLock { $0 })")
    #expect(lines.first?.contentID == "d")
    #expect(lines.first?.message.contains("404") == true, "\(lines)")
    cdns.nginx.stop(graceful: false)
  }
}
