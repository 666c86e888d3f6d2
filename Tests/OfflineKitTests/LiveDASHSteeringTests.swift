import DASHManifest
import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a live DASH recording steered and failed over like a VOD download. Our
/// live origin serves the presentation at two service locations, `alpha/` and `beta/`
/// (`BaseURL@serviceLocation`), with a `ContentSteering` element whose server answers `beta`
/// first with a `TTL` of one second; `beta` answers 503 for every segment from the sixth on.
/// The recording must follow the steering answer, take the rest from `alpha` without a gap,
/// ask the steering server again as the `TTL` says, and decode like the origin's segments.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct LiveDASHSteeringTests {
  static let betaFirst =
    #"{"VERSION":1,"TTL":1,"SERVICE-LOCATION-PRIORITY":["beta","alpha"]}"#

  @Test func whenTheSteeredLocationFailsMidRecordingTheNextOneServesWithoutAGap()
    async throws
  {
    let failsFrom = 6
    let origin = try await DASHLiveOrigin(
      layout: .timeline, serviceLocations: ["alpha", "beta"], failingLocation: "beta",
      failsFrom: failsFrom)
    origin.server.setRoute(
      "/steering.json",
      .status(
        code: 200, headers: [("Content-Type", "application/json")], body: Data(Self.betaFirst.utf8)
      ))
    try origin.start()
    defer { origin.stop() }
    let recordings = LiveDASHRecordingTests()
    let recorded = try await recordings.record(origin, live: .init(start: .fromStart))
    let all = Array(1...DASHLiveOrigin.segmentCount)

    #expect(recorded.state.finished == .endList)
    for track in recorded.state.tracks.indices {
      #expect(recorded.state.tracks[track].journal.ledger.gaps.isEmpty)
      #expect(recorded.recorded(track) == all)
    }
    let requests = origin.server.requests.map(\.path)
    // Asked at once with the default location, then again every TTL, with the one in use.
    let steering = requests.filter { $0.hasPrefix("/steering.json") }
    #expect(steering.first == "/steering.json?_DASH_pathway=alpha", "\(steering)")
    #expect(steering.count >= 3, "\(steering)")
    #expect(steering.dropFirst().contains { $0.contains("_DASH_pathway=beta") }, "\(steering)")
    // The segments before the failure from beta, as steered; every one from the failure on
    // from alpha, once beta refused it.
    let segments = requests.filter { $0.contains("/chunk-stream") }
    let early = (1..<failsFrom).map { DASHLiveOrigin.segmentName(stream: 0, $0) }
    #expect(early.contains { segments.contains("/beta/" + $0) }, "\(segments)")
    for stream in 0..<2 {
      for number in failsFrom...DASHLiveOrigin.segmentCount {
        let name = DASHLiveOrigin.segmentName(stream: stream, number)
        #expect(segments.contains("/alpha/" + name), "\(name) from alpha: \(segments)")
      }
    }
    #expect(!requests.contains { $0.hasPrefix("/chunk-stream") }, "none at the MPD's own root")
    let sources = recorded.outcome.sources
    #expect(sources.map(\.url.lastPathComponent) == ["alpha", "beta"], "\(sources)")
    #expect(sources.allSatisfy { $0.bytes > 0 }, "\(sources)")
    #expect(sources.last?.dropped?.contains("503") == true, "\(sources)")
    try await recordings.expectSamePictures(recorded, as: all, of: origin)
  }
}
