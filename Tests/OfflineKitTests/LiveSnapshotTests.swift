import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The library's snapshot of a live recording (issue 41, item 3): recorded duration and
/// segments, each gap with its numbers and reason, whether it still records and how far it
/// is behind the live edge.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct LiveSnapshotTests {
  @Test func theSnapshotOfARecordingShowsItsSegmentsItsGapAndWhetherItRecords() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 9, window: 6, initialSegments: 3, dropped: [104]))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(origin.url, id: "live")
    var stream = StreamConfiguration()
    stream.live.start = .fromStart
    try origin.start()
    defer { origin.stop() }
    try await content.download(DownloadConfiguration(stream: stream))
    let (whileRecording, finished) = try await fixture.running {
      var seen: LiveRecordingSummary?
      for _ in 0..<400 where (seen?.recordedSegments ?? 0) < 2 {
        try await Task.sleep(for: .milliseconds(50))  // at most 20 s
        seen = try await content.snapshot.live
      }
      let finished = await recorder.waitFor(timeout: .seconds(60)) {
        if case .finished = $0 { return true }
        return false
      }
      return (seen, finished)
    }
    #expect(finished, "\(recorder.names)")
    let running = try #require(whileRecording)
    #expect(running.isRecording)
    #expect(running.liveEdgeDelay != nil)
    #expect(running.finishReason == nil)

    let snapshot = try await content.snapshot
    #expect(snapshot.state == .downloaded)
    let live = try #require(snapshot.live)
    #expect(live.recordedSegments == 8)
    #expect(abs(live.recordedSeconds - 8) < 0.1, "\(live.recordedSeconds)")
    #expect(
      live.gaps == [.init(firstSequence: 104, lastSequence: 104, reason: .failedAfterRetries)])
    #expect(!live.isRecording)
    #expect(live.liveEdgeDelay == nil)
    #expect(live.finishReason == "endList")
    #expect(ContentProjection(snapshot).live == live)
  }

  @Test func aStateNotFinishedRecordsOnlyWhileItsContentDownloads() throws {
    var state = LiveRecordState(
      playlistURL: URL(string: "http://example.com/live.m3u8")!, journal: LiveJournal())
    state.journal.recorded = SequenceRanges(100...103)
    state.journal.recordedSeconds = 4
    state.journal.asked = [104: 1.5, 105: 2]
    state.journal.ledger.add(LiveGap(sequences: 98...99, reason: .notRunning))
    let downloading = LiveRecordingSummary(state, downloading: true)
    #expect(downloading.isRecording)
    #expect(downloading.liveEdgeDelay == 3.5)
    #expect(downloading.recordedSegments == 4)
    #expect(downloading.gaps == [.init(firstSequence: 98, lastSequence: 99, reason: .notRunning)])
    #expect(downloading.missingSegments == 2)
    let paused = LiveRecordingSummary(state, downloading: false)
    #expect(!paused.isRecording && paused.liveEdgeDelay == nil)
    state.finished = .endList
    let ended = LiveRecordingSummary(state, downloading: true)
    #expect(!ended.isRecording && ended.finishReason == "endList")
  }
}
