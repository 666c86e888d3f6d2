import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineLocks
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Live HLS recorded end to end (issue 41, second layer): our live origin slides a window
/// over segments made by ffmpeg, one a second; the recorder fetches them through the piece
/// engine over loopback; the offline playlist is decoded by ffmpeg and its pictures compared
/// with the origin's segments decoded in order.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct LiveHLSRecordingTests {
  /// A recording of `origin` into a fresh folder with `live` options.
  struct Recorded {
    let store: TemporaryDirectory
    let outcome: StreamOutcome
    let state: LiveRecordState
    /// Seconds from the call to its return.
    let took: Double
    var folder: URL { store.url.appending(path: "content") }
    /// The recorded numbers, in order.
    var recorded: [Int] { state.journal.recorded.runs.flatMap { Array($0) } }
  }

  func record(
    _ origin: LiveOrigin, live: LiveRecordingOptions, url: URL? = nil,
    configuration: StreamConfiguration = StreamConfiguration()
  ) async throws -> Recorded {
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    var configuration = configuration
    configuration.live = live
    let download = HLSDownload(
      url: url ?? origin.url, folder: store.url.appending(path: "content"),
      configuration: configuration, journal: index.transfers, transport: CurlTransport())
    let began = Date()
    let outcome = try await download.run()
    let took = Date().timeIntervalSince(began)
    let state = try #require(LiveRecordState.readMain(in: download.folder))
    return Recorded(store: store, outcome: outcome, state: state, took: took)
  }

  /// Expects the recording of every segment `origin` published to decode cleanly for the
  /// origin's whole duration (within 0.6 s) into the same pictures as the origin's segments.
  func expectPlaysTheWholeStream(
    _ recorded: Recorded, of origin: LiveOrigin, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)", sourceLocation: sourceLocation)
    let total = origin.schedule.sequences.map(origin.duration).reduce(0, +)
    #expect(
      abs(decoded.duration - total) < 0.6, "\(decoded.duration) of \(total)",
      sourceLocation: sourceLocation)
    try await expectSamePictures(recorded, as: recorded.recorded, of: origin)
  }

  /// Expects the offline playlist to decode cleanly into the same pictures as the origin's
  /// segments `sequences` decoded in order.
  func expectSamePictures(_ recorded: Recorded, as sequences: [Int], of origin: LiveOrigin)
    async throws
  {
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    let reference = recorded.store.file("reference.ts")
    try origin.referenceFile(of: sequences, in: reference)
    let offline = try await FFmpeg.frameHashes(of: recorded.outcome.index.path)
    let expected = try await FFmpeg.frameHashes(of: reference.path)
    #expect(!expected.isEmpty)
    #expect(offline == expected, "\(offline.count) pictures recorded, \(expected.count) sent")
  }

  @Test func aWindowHoldingEachSegmentThreeTargetDurationsLosesNone() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 10, window: 5, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.state.journal.ledger.gaps.isEmpty, "\(recorded.state.journal.ledger)")
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    #expect(recorded.outcome.segments == 10)
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    #expect(text.contains("#EXT-X-ENDLIST") && !text.contains("#EXT-X-DISCONTINUITY"), "\(text)")
    try await expectSamePictures(recorded, as: recorded.recorded, of: origin)
  }

  @Test func aLiveVariantOfAMultivariantPlaylistIsRecorded() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 6, window: 5, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart), url: origin.masterURL)
    #expect(recorded.state.playlistURL == origin.url)
    #expect(recorded.state.finished == .endList)
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    try await expectSamePictures(recorded, as: recorded.recorded, of: origin)
  }

  @Test func aDroppedSegmentIsExactlyOneGapAndTheRestPlays() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 10, window: 6, initialSegments: 3, dropped: [104]))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(
      recorded.state.journal.ledger.gaps == [
        LiveGap(sequences: 104...104, reason: .failedAfterRetries)
      ])
    let expected = Array(origin.schedule.sequences).filter { $0 != 104 }
    #expect(recorded.recorded == expected)
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    #expect(text.components(separatedBy: "#EXT-X-DISCONTINUITY\n").count == 2, "\(text)")
    try await expectSamePictures(recorded, as: expected, of: origin)
  }

  @Test func aPlaylistThatStopsMovingEndsWithinTheSilenceLimit() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 6, window: 6, initialSegments: 3, endsWithEndList: false))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(
      origin, live: .init(start: .fromStart, endAfterSilence: .seconds(3)))
    let ended = try #require(origin.endedAt)
    let after = Date().timeIntervalSince(ended)
    #expect(recorded.state.finished == .endedBySilence)
    // The silence counts from the reload that brought the last segment (up to one target
    // duration after it appeared), and is seen at a reload (half of one apart).
    #expect(after >= 3 && after < 5.5, "ended \(after) s after the last segment")
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    #expect(text.contains("#EXT-X-ENDLIST"))
  }

  @Test func aStallShorterThanTheSilenceLimitIsNotAnEnd() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 8, window: 8, initialSegments: 3, stalls: [104: 2.5]))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(
      origin, live: .init(start: .fromStart, endAfterSilence: .seconds(4)))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    #expect(recorded.state.journal.ledger.gaps.isEmpty)
  }

  @Test func aCancelStopsTheRecordingAndTheSameRunGoesOnFromTheLiveEdgeAfterAGap()
    async throws
  {
    let origin = try await LiveOrigin(.init(segmentCount: 16, window: 4, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    var configuration = StreamConfiguration()
    configuration.live = .init(start: .fromStart)
    let download = HLSDownload(
      url: origin.url, folder: store.url.appending(path: "content"), configuration: configuration,
      journal: index.transfers, transport: CurlTransport())
    let first = Task { try await download.run() }
    for _ in 0..<400
    where (LiveRecordState.read(in: download.folder)?.journal.recorded.count ?? 0) < 4 {
      try await Task.sleep(for: .milliseconds(50))  // at most 20 s
    }
    first.cancel()
    do {
      _ = try await first.value
      Issue.record("a cancelled recording said it finished")
    } catch let error as Transfer.Error {
      guard case .canceled = error.kind else {
        Issue.record("stopped with \(error), not canceled")
        return
      }
    }
    let paused = try #require(LiveRecordState.read(in: download.folder))
    #expect(paused.finished == .stopped)
    #expect(try String(contentsOf: download.indexURL(), encoding: .utf8).contains("#EXT-X-ENDLIST"))
    #expect(!download.isComplete, "a stopped recording goes on when run again")
    try await Task.sleep(for: .seconds(5))  // longer than the window: some go by unseen
    let outcome = try await download.run()
    let state = try #require(LiveRecordState.read(in: download.folder))
    #expect(state.finished == .endList)
    #expect(state.journal.ledger.gaps.count == 1, "\(state.journal.ledger)")
    #expect(state.journal.ledger.gaps.first?.reason == .notRunning)
    #expect(state.journal.unaccounted().isEmpty)
    #expect(state.journal.recorded.last == origin.schedule.sequences.upperBound)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }

  /// A playlist that fails (503) for longer than the silence limit has not said the stream
  /// ended: failing reloads count toward giving up (20 target durations), never as silence.
  @Test func aFailingPlaylistIsNotTakenForAnEnd() async throws {
    // The silence limit is 3 s for one segment a second: a loaded machine delayed the
    // origin's next segment past a 2 s limit (session 38's CI).
    let origin = try await LiveOrigin(
      .init(segmentCount: 8, window: 8, initialSegments: 3, outages: [104: 4.5]))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(
      origin, live: .init(start: .fromStart, endAfterSilence: .seconds(3)))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    #expect(recorded.state.journal.ledger.gaps.isEmpty)
  }

  /// A first window of many segments (from the start) is fetched a few at a time, as
  /// ``StreamConfiguration/parallelSegments`` says, not all at once: an origin that takes
  /// two at a time refuses none of them. With eight at once it refuses some (the check has
  /// teeth), and retries still bring every segment.
  @Test(arguments: [(2, false), (8, true)])
  func aLargeFirstWindowIsFetchedAFewSegmentsAtATime(parallel: Int, refusals: Bool)
    async throws
  {
    let origin = try await LiveOrigin(
      .init(
        segmentCount: 14, window: 14, initialSegments: 12, segmentBytesPerSecond: 60_000,
        segmentCapacity: 2))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(
      origin, live: .init(start: .fromStart),
      configuration: StreamConfiguration(parallelSegments: parallel))
    #expect((origin.server.overloadRefusals > 0) == refusals, "\(origin.server.overloadRefusals)")
    #expect(recorded.recorded == Array(origin.schedule.sequences))
  }

  @Test func recordForStopsAtTheRecordedDuration() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 12, window: 6, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart, recordFor: .seconds(4)))
    #expect(recorded.state.finished == .durationReached)
    #expect(recorded.state.journal.recordedSeconds >= 4)
    #expect(recorded.state.journal.recordedSeconds < 8, "\(recorded.state.journal.recordedSeconds)")
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}

/// The playlist's URL refused mid-recording (an expired token, 403): with a refresh hook the
/// run ends for the refresh (ContentDownload's, as for VOD) and goes on with the fresh URL
/// into the same recording.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct LiveHLSRefreshTests {
  @Test func aRefusedPlaylistIsRefreshedAndTheRecordingGoesOnWithoutAGap() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 10, window: 10, initialSegments: 3, movesAfter: 105))
    try origin.start()
    defer { origin.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    var configuration = StreamConfiguration()
    configuration.live = .init(start: .fromStart)
    let folder = store.url.appending(path: "content")
    let download = ContentDownload(
      kind: .hls, session: ContentSession(url: origin.url, transport: CurlTransport()),
      journal: index.transfers, destination: folder.path, stream: configuration,
      refreshesURL: true)
    let asked = Locked(0)
    let refresh = URLRefresh { _ in
      asked.withLock { $0 += 1 }
      return origin.url
    }
    let outcome = try await download.run(refreshing: refresh, contentID: "live") { _ in }
    guard case .stream(let stream) = outcome else {
      Issue.record("not a stream: \(outcome)")
      return
    }
    #expect(asked.withLock { $0 } >= 1, "the refresh hook was asked")
    let state = try #require(LiveRecordState.read(in: folder))
    #expect(state.finished == .endList)
    #expect(state.journal.ledger.gaps.isEmpty, "\(state.journal.ledger)")
    #expect(state.journal.recorded.runs == [origin.schedule.sequences])
    #expect(state.playlistURL.path.hasPrefix("/v2/"), "\(state.playlistURL)")
    let decoded = try await FFmpeg.decode(stream.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}
