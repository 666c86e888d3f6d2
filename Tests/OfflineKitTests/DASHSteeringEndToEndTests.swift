import DASHManifest
import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: DASH content steering (DASH-IF CTS 001). One presentation on two
/// origins, `cdn1/` as the service location `alpha` and `cdn2/` as `beta`, under one nginx,
/// and a steering manifest nginx serves as a static JSON file. What each origin served is
/// read from nginx's access log; the copy's decoded frames are compared with the origin's.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct DASHSteeringEndToEndTests {
  typealias TwoCDNs = StreamFailoverTests.TwoCDNs

  /// Two segments at a time with quick retries: a slowed origin's download outlasts a
  /// steering answer.
  static let twoAtATime = StreamConfiguration(
    parallelSegments: 2, pieceRetries: 2, pieceRetryDelay: .milliseconds(10))

  /// The presentation's default steering answer: `beta` first.
  static let betaFirst = #"{"VERSION":1,"TTL":300,"SERVICE-LOCATION-PRIORITY":["beta","alpha"]}"#

  /// `alpha` first by the MPD (`dvb:priority` and `defaultServiceLocation`), and a
  /// `ContentSteering` element with `attributes` pointing at `/steering.json`.
  static func writeManifest(in cdns: TwoCDNs, steering attributes: String) throws {
    try StreamFailoverTests.writeManifest(
      in: cdns.www,
      baseURLs: #"<ContentSteering defaultServiceLocation="alpha" \#(attributes)>"#
        + "/steering.json</ContentSteering>"
        + #"<BaseURL serviceLocation="alpha" dvb:priority="1">cdn1/</BaseURL>"#
        + #"<BaseURL serviceLocation="beta" dvb:priority="2">cdn2/</BaseURL>"#)
  }

  static func writeSteering(_ json: String, in cdns: TwoCDNs, name: String = "steering.json")
    throws
  {
    try json.write(to: cdns.www.file(name), atomically: true, encoding: .utf8)
  }

  /// What one download of the presentation left: its outcome, its steering notes, and the
  /// store that holds the copy (as long as this lives).
  struct SteeredRun {
    let outcome: StreamOutcome
    let notes: [String]
    let root: TemporaryDirectory
    let index: OfflineIndex
  }

  /// Downloads the presentation into a new store, its steering notes collected.
  func steeredRun(
    _ cdns: TwoCDNs, configuration: StreamConfiguration = StreamFailoverTests.quickRetries
  ) async throws -> SteeredRun {
    let root = try TemporaryDirectory(prefix: "offlinekit-steering-store")
    let index = try OfflineIndex(directory: root.url.appending(path: "store"))
    var download = DASHDownload(
      url: cdns.nginx.url("/manifest.mpd"), folder: root.url.appending(path: "content"),
      configuration: configuration, journal: index.transfers, transport: CurlTransport())
    let notes = Locked<[String]>([])
    download.log = { note in notes.withLock { $0.append(note) } }
    let outcome = try await download.run()
    return SteeredRun(outcome: outcome, notes: notes.withLock { $0 }, root: root, index: index)
  }

  /// Expects the copy of `outcome` to decode to the origin's frames (stopping the CDNs
  /// first, so nothing is read from them).
  static func expectDecodesLikeTheOrigin(_ outcome: StreamOutcome, _ cdns: TwoCDNs) async throws {
    let origin = try await StreamFailoverTests.decodedMD5s(
      cdns.www.url.appending(path: "cdn1/manifest.mpd").path)
    cdns.nginx.stop(graceful: false)
    #expect(try await StreamFailoverTests.decodedMD5s(outcome.index.path) == origin)
  }

  /// The segment and init-section requests of `log` (those under a CDN's folder).
  static func pieceRequests(_ log: [AccessLogEntry]) -> [AccessLogEntry] {
    log.filter { $0.uri.hasPrefix("/cdn") && !$0.uri.hasSuffix(".mpd") }
  }

  @Test func theSegmentsComeFromTheServiceLocationTheSteeringServerPrefers() async throws {
    let cdns = try await TwoCDNs(dash: .timeline)
    try Self.writeManifest(in: cdns, steering: #"queryBeforeStart="true""#)
    try Self.writeSteering(Self.betaFirst, in: cdns)
    let run = try await steeredRun(cdns)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome

    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    let steering = log.filter { $0.uri.hasPrefix("/steering.json") }
    #expect(steering.map(\.uri) == ["/steering.json?_DASH_pathway=alpha"], "\(log.map(\.uri))")
    let pieces = Self.pieceRequests(log)
    #expect(
      !pieces.isEmpty && pieces.allSatisfy { $0.uri.hasPrefix("/cdn2/") && $0.status == 200 },
      "every piece from beta: \(pieces.map(\.uri))")
    #expect(
      outcome.sources.map(\.url.path) == ["/cdn2", "/cdn1"], "\(outcome.sources)")
    #expect(outcome.sources.last?.bytes == 0)
    #expect(run.notes.isEmpty)
    try await Self.expectDecodesLikeTheOrigin(outcome, cdns)
    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    #expect(!text.contains("ContentSteering") && !text.contains("cdn"), "\(text)")
  }

  /// The steered location stops serving midway (every segment from the fourth on answers
  /// 404): those come from the next location in the steering order (and, once the steered
  /// one has failed three in a row, the pieces that follow go there first, as for any
  /// source), and the copy decodes like the origin.
  @Test func whenTheSteeredLocationFailsMidwayTheCopyIsFinishedFromTheNext() async throws {
    let cdns = try await TwoCDNs(dash: .timeline)
    try Self.writeManifest(in: cdns, steering: #"queryBeforeStart="true""#)
    try Self.writeSteering(Self.betaFirst, in: cdns)
    let missing = try cdns.remove(from: "cdn2") { name in
      guard name.hasPrefix("chunk-"), let number = Int(name.dropLast(4).suffix(5)) else {
        return false
      }
      return number >= 4
    }
    #expect(missing.count >= 4, "\(missing.keys)")
    let run = try await steeredRun(cdns)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome

    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    let pieces = Self.pieceRequests(log)
    let fromAlpha = Set(
      pieces.filter { $0.uri.hasPrefix("/cdn1/") && $0.status == 200 }
        .map { ($0.uri as NSString).lastPathComponent })
    #expect(fromAlpha.isSuperset(of: missing.keys), "\(pieces.map(\.uri))")
    #expect(
      pieces.first?.uri.hasPrefix("/cdn2/") == true, "beta first: \(pieces.map(\.uri))")
    #expect(outcome.sources.map(\.url.path) == ["/cdn2", "/cdn1"], "\(outcome.sources)")
    #expect(outcome.sources.first?.bytes ?? 0 > 0, "\(outcome.sources)")
    #expect(outcome.sources.last?.bytes ?? 0 >= missing.values.reduce(0, +))
    let origin = try await StreamFailoverTests.decodedMD5s(
      cdns.www.url.appending(path: "cdn1/manifest.mpd").path)
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(try await StreamFailoverTests.decodedMD5s(outcome.index.path) == origin)
  }

  /// The steering server answers 404: the MPD's own order holds (`alpha`, the lower
  /// `dvb:priority` and the default location), the download ends well, and the failure is
  /// told for the log.
  @Test func aFailingSteeringServerLeavesTheManifestsOrderWithALogLine() async throws {
    let cdns = try await TwoCDNs(dash: .timeline)
    try Self.writeManifest(in: cdns, steering: #"queryBeforeStart="true""#)
    let run = try await steeredRun(cdns)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome

    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    let pieces = Self.pieceRequests(log)
    #expect(
      !pieces.isEmpty && pieces.allSatisfy { $0.uri.hasPrefix("/cdn1/") },
      "\(pieces.map(\.uri))")
    #expect(outcome.sources.map(\.url.path) == ["/cdn1", "/cdn2"], "\(outcome.sources)")
    let told = run.notes
    #expect(
      told.count == 1 && told[0].contains("steering.json") && told[0].contains("404"),
      "\(told)")
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }

  /// Without `queryBeforeStart`, the download does not wait for the steering server: it
  /// asks it beside the pieces, at once and once (the `TTL` is long), with the default
  /// location as `_DASH_pathway`, and the pieces that start after its answer come from the
  /// location it prefers. The origins are slowed so the answer comes before the last pieces.
  @Test func withoutQueryBeforeStartTheServerIsAskedBesideTheDownload() async throws {
    let cdns = try await TwoCDNs(dash: .timeline, options: .init(limitRate: "64k"))
    try Self.writeManifest(in: cdns, steering: "")
    try Self.writeSteering(Self.betaFirst, in: cdns)
    let run = try await steeredRun(cdns, configuration: Self.twoAtATime)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome
    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    let steering = log.filter { $0.uri.hasPrefix("/steering.json") }
    #expect(steering.map(\.uri) == ["/steering.json?_DASH_pathway=alpha"], "\(log.map(\.uri))")
    let fromBeta = Self.pieceRequests(log).filter { $0.uri.hasPrefix("/cdn2/") }
    #expect(!fromBeta.isEmpty, "\(log.map(\.uri))")
    #expect(outcome.sources.map(\.url.path) == ["/cdn1", "/cdn2"], "\(outcome.sources)")
    #expect(outcome.sources.last?.bytes ?? 0 > 0, "\(outcome.sources)")
    try await Self.expectDecodesLikeTheOrigin(outcome, cdns)
  }

  /// The steering manifest changes on reload (a `TTL` of 1 s, a `RELOAD-URI` naming one
  /// that prefers `alpha`): it is asked again while the pieces download, with the location
  /// in use and the measured throughput, and the pieces that start after it come from
  /// `alpha`. The origins are slowed so the download outlasts the `TTL`.
  @Test func aSteeringManifestThatChangesOnReloadMovesTheRestOfThePieces() async throws {
    let cdns = try await TwoCDNs(dash: .timeline, options: .init(limitRate: "32k"))
    try Self.writeManifest(in: cdns, steering: #"queryBeforeStart="true""#)
    try Self.writeSteering(
      #"{"VERSION":1,"TTL":1,"RELOAD-URI":"steering2.json","SERVICE-LOCATION-PRIORITY":["beta","alpha"]}"#,
      in: cdns)
    try Self.writeSteering(
      #"{"VERSION":1,"TTL":300,"SERVICE-LOCATION-PRIORITY":["alpha","beta"]}"#, in: cdns,
      name: "steering2.json")
    let run = try await steeredRun(cdns, configuration: Self.twoAtATime)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome

    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    let reloads = log.filter { $0.uri.hasPrefix("/steering2.json") }.map(\.uri)
    #expect(reloads.count == 1, "\(log.map(\.uri))")
    #expect(
      reloads.first?.hasPrefix("/steering2.json?_DASH_pathway=beta") == true, "\(reloads)")
    let pieces = Self.pieceRequests(log)
    #expect(pieces.first?.uri.hasPrefix("/cdn2/") == true, "\(pieces.map(\.uri))")
    #expect(pieces.contains { $0.uri.hasPrefix("/cdn1/") }, "\(pieces.map(\.uri))")
    #expect(pieces.allSatisfy { $0.status == 200 }, "\(pieces.map(\.uri))")
    #expect(outcome.sources.map(\.url.path) == ["/cdn2", "/cdn1"], "\(outcome.sources)")
    #expect(run.notes.isEmpty)
    try await Self.expectDecodesLikeTheOrigin(outcome, cdns)
  }

  /// A malformed `ContentSteering` (a `queryBeforeStart` that is not a boolean) is ignored
  /// with a note naming why: no steering request, the MPD's order, the download ends well.
  @Test func aMalformedSteeringElementIsIgnoredWithANote() async throws {
    let cdns = try await TwoCDNs(dash: .timeline)
    try Self.writeManifest(in: cdns, steering: #"queryBeforeStart="soon""#)
    try Self.writeSteering(Self.betaFirst, in: cdns)
    let run = try await steeredRun(cdns)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome

    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    #expect(!log.contains { $0.uri.hasPrefix("/steering") }, "\(log.map(\.uri))")
    #expect(outcome.sources.map(\.url.path) == ["/cdn1", "/cdn2"], "\(outcome.sources)")
    let told = run.notes
    #expect(told.count == 1 && told[0].contains("queryBeforeStart 'soon'"), "\(told)")
    cdns.nginx.stop(graceful: false)
  }
}
