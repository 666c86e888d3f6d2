import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A live DASH presentation through the manager's queue (issue 41 items 6 and 7): it records
/// while `downloading`, a pause leaves a playable `suspended` content, and a resume goes on
/// from the live edge with the pause in each track's ledger.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct LiveDASHQueueTests {
  @Test func aPausedRecordingIsSuspendedPlayableAndResumesAfterAGap() async throws {
    let origin = try await DASHLiveOrigin(segmentCount: 20, window: 4)
    try origin.start()
    defer { origin.stop() }
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(origin.url, id: "live")
    let folder = fixture.contentFolder("live")
    var stream = StreamConfiguration()
    stream.live.start = .fromStart
    try await content.download(DownloadConfiguration(stream: stream))
    let (paused, finished) = try await fixture.running {
      for _ in 0..<300 {  // at most 15 s: three segments of each track on disk
        try await Task.sleep(for: .milliseconds(50))
        let tracks = DASHLiveState.read(in: folder)?.tracks ?? []
        if !tracks.isEmpty, tracks.allSatisfy({ $0.journal.recorded.count >= 3 }) { break }
      }
      #expect(try await content.state == .downloading)
      try await content.suspend()
      let suspended = await recorder.waitFor(timeout: .seconds(20)) {
        $0.name == "state:suspended"
      }
      #expect(suspended, "\(recorder.names)")
      let paused = DASHLiveState.read(in: folder)
      let source = try await content.playbackURL()
      let decoded = try await FFmpeg.decode(source.path)
      #expect(decoded.errors.isEmpty, "a paused recording plays: \(decoded.errors)")
      #expect(decoded.duration >= 2.5, "\(decoded.duration) s")
      try await Task.sleep(for: .seconds(6))  // longer than the window
      try await content.resume()
      let finished = await recorder.waitFor(timeout: .seconds(60)) {
        if case .finished = $0 { return true }
        return false
      }
      return (paused, finished)
    }
    #expect(finished, "\(recorder.names)")
    #expect(try await content.state == .downloaded)
    let before = try #require(paused)
    #expect(before.finished == .stopped)
    let state = try #require(DASHLiveState.read(in: folder))
    #expect(state.finished == .endList)
    for (track, earlier) in zip(state.tracks, before.tracks) {
      #expect(track.journal.ledger.gaps.map(\.reason) == [.notRunning], "\(track.journal.ledger)")
      #expect(track.journal.unaccounted().isEmpty)
      let kept = earlier.journal.recorded.runs.flatMap { Array($0) }
      #expect(kept.allSatisfy { track.journal.recorded.contains($0) }, "\(kept)")
    }
    // The snapshot shows the pause as the recording's one gap, as for HLS.
    let live = try #require(try await content.snapshot.live)
    #expect(live.gaps.map(\.reason) == [.notRunning], "\(live.gaps)")
    #expect(live.recordedSegments == state.tracks.map(\.journal.recorded.count).min())
    #expect(!live.isRecording && live.finishReason == "endList")
    let source = try await content.playbackURL()
    #expect(source.lastPathComponent == "index.mpd")
    let decoded = try await FFmpeg.decode(source.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(try await content.verify().isWhole)
  }
}
