import DASHManifest
import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Live DASH recorded end to end (issue 41 item 6): our live origin serves a `dynamic` MPD
/// over segments made by ffmpeg's DASH muxer, one a second; the recorder fetches them through
/// the piece engine over loopback; the offline MPD is decoded by ffmpeg and its pictures
/// compared with the origin's segments decoded in order.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct LiveDASHRecordingTests {
  /// A recording into a fresh folder.
  struct Recorded {
    let store: TemporaryDirectory
    let outcome: StreamOutcome
    let state: DASHLiveState
    var folder: URL { store.url.appending(path: "content") }

    /// The numbers recorded of track `track`, in order.
    func recorded(_ track: Int) -> [Int] {
      state.tracks[track].journal.recorded.runs.flatMap { Array($0) }
    }
  }

  func record(_ origin: DASHLiveOrigin, live: LiveRecordingOptions) async throws -> Recorded {
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    var configuration = StreamConfiguration()
    configuration.live = live
    let download = DASHDownload(
      url: origin.url, folder: store.url.appending(path: "content"),
      configuration: configuration, journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()
    let state = try #require(DASHLiveState.read(in: download.folder))
    return Recorded(store: store, outcome: outcome, state: state)
  }

  /// Expects the offline MPD to decode cleanly, as long as `numbers` last, into the same
  /// pictures as the origin's video segments `numbers` decoded in order.
  func expectSamePictures(_ recorded: Recorded, as numbers: [Int], of origin: DASHLiveOrigin)
    async throws
  {
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - Double(numbers.count)) < 0.6, "\(decoded.duration) s")
    let offline = try await FFmpeg.frameMD5s(recorded.outcome.index.path, stream: "v:0")
    #expect(offline.errors.isEmpty, "\(offline.errors)")
    let expected = try await FFmpeg.frameMD5s(
      ofJoined: try origin.joined(stream: 0, numbers), video: true, in: recorded.store.url)
    #expect(!expected.hashes.isEmpty)
    #expect(
      offline.hashes == expected.hashes,
      "\(offline.hashes.count) pictures recorded, \(expected.hashes.count) sent")
  }

  /// Expects a second run into the folder of a recording that ended to be refused, and
  /// to leave the recording as it was.
  func expectAnotherRunRefused(_ recorded: Recorded, origin: DASHLiveOrigin) async throws {
    let index = try OfflineIndex(directory: recorded.store.url.appending(path: "store"))
    let again = DASHDownload(
      url: origin.url, folder: recorded.folder, journal: index.transfers,
      transport: CurlTransport())
    let error = await #expect(throws: Transfer.Error.self) { try await again.run() }
    #expect(
      error?.description.contains("live recording that ended") == true,
      "\(String(describing: error))")
    #expect(DASHLiveState.read(in: recorded.folder) == recorded.state)
  }

  @Test(arguments: DASHLiveOrigin.Layout.allCases)
  func aLivePresentationIsRecordedWithoutALostSegment(_ layout: DASHLiveOrigin.Layout)
    async throws
  {
    let origin = try await DASHLiveOrigin(layout: layout)
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    let all = Array(1...DASHLiveOrigin.segmentCount)
    try await expectAnotherRunRefused(recorded, origin: origin)
    #expect(recorded.state.finished == .endList)
    #expect(recorded.state.tracks.count == 2)
    for track in recorded.state.tracks.indices {
      #expect(recorded.state.tracks[track].journal.ledger.gaps.isEmpty)
      #expect(recorded.recorded(track) == all)
    }
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    #expect(text.contains(#"type="static""#) && !text.contains("http://"), "\(text)")
    let partial = recorded.folder.appending(path: DASHPartialManifest.fileName)
    #expect(try String(contentsOf: partial, encoding: .utf8) == text)
    try await expectSamePictures(recorded, as: all, of: origin)
  }

  @Test(arguments: DASHLiveOrigin.Layout.allCases)
  func aDroppedSegmentIsExactlyOneGapAndTheRestPlays(_ layout: DASHLiveOrigin.Layout)
    async throws
  {
    let origin = try await DASHLiveOrigin(layout: layout, dropped: [5])
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    let expected = Array(1...DASHLiveOrigin.segmentCount).filter { $0 != 5 }
    for track in recorded.state.tracks.indices {
      #expect(
        recorded.state.tracks[track].journal.ledger.gaps == [
          LiveGap(sequences: 5...5, reason: .failedAfterRetries)
        ])
      #expect(recorded.recorded(track) == expected)
    }
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    let offline = try await FFmpeg.frameMD5s(recorded.outcome.index.path, stream: "v:0")
    let reference = try await FFmpeg.frameMD5s(
      ofJoined: try origin.joined(stream: 0, expected), video: true, in: recorded.store.url)
    #expect(offline.hashes == reference.hashes)
  }
}
