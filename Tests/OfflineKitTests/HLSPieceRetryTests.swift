import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// One bad answer must not fail a long stream (issue 11, item 8): every piece (media
/// playlist, segment, init section, key) that fails with 403, 404, 408, 410, 429, 5xx or
/// connection trouble is tried again in the same run, up to ``StreamConfiguration/pieceRetries``;
/// a piece that keeps failing fails the run naming it. The stream's own URL keeps the rule of
/// a plain file's URL: a 404 there fails at once.
@Suite(.timed) struct HLSPieceRetryTests {
  typealias Stream = FaultHLSTests.Stream

  /// Pins issue 11, item 8: a key answering 403 once failed the whole run.
  @Test func aKeyRefusedOnceIsTriedAgainAndTheRunFinishes() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/key.bin",
      .sequence([.status(code: 403), .resource(.init(body: Data(repeating: 7, count: 16)))]))

    _ = try await stream.download().run()
    #expect(stream.server.requests(for: "/v/key.bin").count == 2)
    #expect(try stream.segmentsOnDisk() == stream.segments)
    #expect(stream.download().isComplete)
  }

  /// Pins issue 11, item 8: a segment answering 404 twice failed the whole run.
  @Test func aSegmentMissingTwiceIsTriedAgainAndTheRunFinishes() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/seg2.ts",
      .sequence([
        .status(code: 404), .status(code: 404), .resource(.init(body: stream.segments[2])),
      ]))
    let outcome = try await stream.download().run()
    #expect(outcome.segments == FaultHLSTests.segmentCount)
    #expect(stream.server.requests(for: "/v/seg2.ts").count == 3)
    #expect(try stream.segmentsOnDisk() == stream.segments)
  }

  /// Pins issue 11, item 8: 410, 500 and a 429 with `Retry-After` on segments, and a 404 on
  /// a variant's media playlist, are each tried again.
  @Test func goneServerErrorsAndAMediaPlaylistAnswering404AreTriedAgain() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/seg0.ts",
      .sequence([
        .status(code: 410), .status(code: 500), .resource(.init(body: stream.segments[0])),
      ]))
    stream.server.setRoute(
      "/v/seg3.ts",
      .sequence([
        .status(code: 429, headers: [("Retry-After", "0")]),
        .resource(.init(body: stream.segments[3])),
      ]))
    stream.server.setRoute(
      "/v/master.m3u8",
      .status(
        code: 200, body: Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nvariant.m3u8\n".utf8)))
    stream.server.setRoute(
      "/v/variant.m3u8",
      .sequence([.status(code: 404), .status(code: 200, body: Data(stream.mediaText.utf8))]))

    _ = try await stream.download("/v/master.m3u8").run()
    #expect(stream.server.requests(for: "/v/variant.m3u8").count >= 2)
    #expect(stream.server.requests(for: "/v/seg0.ts").count == 3)
    #expect(stream.server.requests(for: "/v/seg3.ts").count == 2)
    #expect(stream.download("/v/master.m3u8").isComplete)
  }

  /// Pins issue 11, item 8: a segment that always answers 404 is tried `pieceRetries` more
  /// times, then the run fails naming it; nothing is complete.
  @Test func aSegmentThatAlwaysAnswers404FailsNamingItAfterItsRetries() async throws {
    let stream = try Stream()
    stream.server.setRoute("/v/seg1.ts", .status(code: 404))
    let error = try #require(
      await stream.failingRun(
        options: StreamConfiguration(pieceRetries: 3, pieceRetryDelay: .milliseconds(5))))
    guard case .status(404, _) = error.kind else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(error.url.path == "/v/seg1.ts")
    #expect(error.description.contains("/v/seg1.ts"), "\(error)")
    #expect(stream.server.requests(for: "/v/seg1.ts").count == 4, "one try and 3 retries")
    #expect(!stream.download().isComplete)
    #expect(
      !FileManager.default.fileExists(atPath: stream.folder.appending(path: "index.m3u8").path))
  }

  /// With no piece retries a refused key fails the run at once, before any segment.
  @Test func noPieceRetriesFailsAtTheFirstRefusal() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/key.bin",
      .sequence([.status(code: 403), .resource(.init(body: Data(repeating: 7, count: 16)))]))
    let error = try #require(await stream.failingRun(options: StreamConfiguration(pieceRetries: 0)))
    guard case .status(403, _) = error.kind else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(error.url.path == "/v/key.bin")
    #expect(stream.server.requests(for: "/v/seg0.ts").isEmpty, "no segment before the keys")
  }

  /// The stream's own URL is not a piece: a 404 there fails at once, like a plain file's.
  @Test func theStreamsOwnURLAnswering404FailsAtOnce() async throws {
    let stream = try Stream()
    stream.server.setRoute("/v/media.m3u8", .status(code: 404))
    let error = try #require(await stream.failingRun())
    guard case .status(404, _) = error.kind else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(stream.server.requests(for: "/v/media.m3u8").count == 1)
  }

  /// Pins issue 11, item 8 through the queue: a key refused once no longer suspends the
  /// content; it is `downloaded`.
  @Test func theQueueFinishesAStreamWhoseKeyWasRefusedOnce() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/key.bin",
      .sequence([.status(code: 403), .resource(.init(body: Data(repeating: 7, count: 16)))]))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(
      stream.server.url("/v/media.m3u8"), id: "stream")
    try await content.download(DownloadConfiguration(stream: Stream.fastRetries))
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "finished" || $0.name == "state:suspended" })
    }
    #expect(try await content.snapshot.state == .downloaded)
    #expect(stream.server.requests(for: "/v/key.bin").count == 2)
  }

  /// Which failures of a piece are tried again, one row each.
  @Test(arguments: [
    (403, true), (404, true), (408, true), (410, true), (429, true), (500, true), (503, true),
    (400, false), (401, false), (416, false),
  ])
  func statusesThatAreTriedAgain(code: Int, retried: Bool) {
    let error = Transfer.Error(.status(code, retryAfter: nil), url: Self.url, destination: "")
    #expect(PieceRetryPolicy.isRetryable(error) == retried)
  }

  @Test func connectionTroubleAndGarbledHeadsAreTriedAgainRefusalsAreNot() {
    let retried: [HTTPError.Kind] = [.connectionLost, .stalled, .cannotConnect, .protocolViolation]
    let final: [HTTPError.Kind] = [.tlsFailure, .redirectRefused(to: "file:///etc/passwd")]
    for kind in retried + final {
      let error = Transfer.Error(
        .network(HTTPError(kind, url: Self.url)), url: Self.url, destination: "")
      #expect(PieceRetryPolicy.isRetryable(error) == retried.contains(kind), "\(kind)")
    }
    for kind: Transfer.Error.Kind in [.invalidMedia("15 bytes, not 16"), .canceled] {
      #expect(!PieceRetryPolicy.isRetryable(Transfer.Error(kind, url: Self.url, destination: "")))
    }
  }

  static let url = URL(string: "http://127.0.0.1/v/seg0.ts")!

  /// Stored options of an earlier version (without the piece fields) still decode.
  @Test func optionsStoredWithoutPieceRetriesDecodeWithTheDefaults() throws {
    let old =
      #"{"variant":{"lowest":{}},"audio":{"all":{}},"subtitles":{"none":{}},"parallelSegments":4}"#
    let options = try JSONDecoder().decode(StreamConfiguration.self, from: Data(old.utf8))
    #expect(options.variant == .lowest)
    #expect(options.parallelSegments == 4)
    #expect(options.pieceRetries == 10)
    #expect(options.pieceRetryDelay == .seconds(1))
  }
}
