import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: DASH's `ContentSteering@proxyServerURL` (DASH-IF CTS 001) against
/// nginx: the presentation of ``DASHSteeringEndToEndTests`` (`alpha` at `cdn1/`, `beta` at
/// `cdn2/`), its steering server `/steering.json` answering `alpha` first, and a proxy
/// steering server, a second nginx location, answering `beta` first. nginx's access log
/// says which was asked, with what.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct DASHSteeringProxyEndToEndTests {
  typealias EndToEnd = DASHSteeringEndToEndTests

  /// The proxy's location: it answers `beta` first whatever it is asked.
  static let proxyLocation =
    "location = /steering-proxy { default_type application/json; return 200 '"
    + EndToEnd.betaFirst + "'; }"

  /// Two CDNs with the proxy location, the MPD's `ContentSteering` with `attributes`, and a
  /// steering server that prefers `alpha` (so only the proxy's answer puts `beta` first).
  static func cdns(steering attributes: String) async throws -> StreamFailoverTests.TwoCDNs {
    let cdns = try await StreamFailoverTests.TwoCDNs(
      dash: .timeline, options: .init(extraLocations: proxyLocation))
    try EndToEnd.writeManifest(in: cdns, steering: attributes)
    try EndToEnd.writeSteering(
      #"{"VERSION":1,"TTL":300,"SERVICE-LOCATION-PRIORITY":["alpha","beta"]}"#, in: cdns)
    return cdns
  }

  @Test func theSteeringRequestGoesToTheProxyCarryingTheServersURL() async throws {
    let cdns = try await Self.cdns(
      steering: #"queryBeforeStart="true" proxyServerURL="/steering-proxy""#)
    let run = try await EndToEnd().steeredRun(cdns)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome

    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    let server = cdns.nginx.url("/steering.json").absoluteString
    let encoded = server.addingPercentEncoding(
      withAllowedCharacters: CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))!
    let asked = log.filter { $0.uri.hasPrefix("/steering") }
    #expect(
      asked.map(\.uri) == ["/steering-proxy?url=\(encoded)&_DASH_pathway=alpha"],
      "\(log.map(\.uri))")
    #expect(asked.allSatisfy { $0.status == 200 })
    let pieces = EndToEnd.pieceRequests(log)
    #expect(
      !pieces.isEmpty && pieces.allSatisfy { $0.uri.hasPrefix("/cdn2/") && $0.status == 200 },
      "every piece from beta, as the proxy says: \(pieces.map(\.uri))")
    #expect(outcome.sources.map(\.url.path) == ["/cdn2", "/cdn1"], "\(outcome.sources)")
    #expect(run.notes.isEmpty, "\(run.notes)")
    try await EndToEnd.expectDecodesLikeTheOrigin(outcome, cdns)
  }

  /// A proxy that is not an http(s) URL: no steering request at all (not even to the
  /// server), the MPD's order, a note naming the proxy, and the download ends well.
  @Test func aProxyThatIsNotAnHTTPURLLeavesTheManifestsOrderWithANote() async throws {
    let cdns = try await Self.cdns(
      steering: #"queryBeforeStart="true" proxyServerURL="ftp://proxy.example/steer""#)
    let run = try await EndToEnd().steeredRun(cdns)
    defer { withExtendedLifetime(run) {} }
    let outcome = run.outcome

    let log = try await cdns.nginx.accessLog(minimumCount: 3, timeout: 10)
    #expect(!log.contains { $0.uri.hasPrefix("/steering") }, "\(log.map(\.uri))")
    let pieces = EndToEnd.pieceRequests(log)
    #expect(
      !pieces.isEmpty && pieces.allSatisfy { $0.uri.hasPrefix("/cdn1/") }, "\(pieces.map(\.uri))")
    #expect(outcome.sources.map(\.url.path) == ["/cdn1", "/cdn2"], "\(outcome.sources)")
    #expect(
      run.notes.count == 1 && run.notes[0].contains("ftp://proxy.example/steer")
        && run.notes[0].contains("the MPD's order of service locations is kept"),
      "\(run.notes)")
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}
