import Foundation
import TestSupport
import TestTiming
import Testing

/// The queue records a live stream whose audio is a rendition of its own (issue 41, item
/// 1), as `get` does: `add` then `run`, the content downloaded at an offline master that
/// decodes whole, and `info` tells the recording from its variant's ledger.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct LiveRenditionsCommandTests {
  @Test func aQueuedLiveStreamWithAnAudioRenditionIsRecordedAndPlays() async throws {
    let stream = try await LiveRenditionOrigins(
      .init(segmentCount: 8, window: 6, initialSegments: 4))
    let schedule = stream.schedule
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([stream.masterURL.absoluteString, "--from-start"])
    try stream.start()
    defer { stream.stop() }
    let run = try await fixture.offline(["run", "--quiet"], timeout: 60)
    #expect(run.status == 0, "\(run.stderrText)")
    let entry = try #require(try await fixture.entry(id))
    #expect(entry.state == "downloaded")
    let folder = (entry.path as NSString).deletingLastPathComponent
    let text = try String(contentsOfFile: entry.path, encoding: .utf8)
    #expect(text.contains("#EXT-X-STREAM-INF:") && text.contains("audio0-en/index.m3u8"), "\(text)")
    for part in ["video", "audio0-en"] {
      let state = try LiveRecordCommandTests.LiveState(folder: folder + "/" + part)
      #expect(state.finished == "endList", "\(part)")
      #expect(state.recorded == Array(schedule.sequences), "\(part)")
    }
    let decoded = try await FFmpeg.decode(entry.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - 8) < 0.6, "\(decoded.duration)")

    let info = try await fixture.offline(["info", id])
    #expect(info.status == 0, "\(info.stderrText)")
    for line in ["Live recording: finished (endList)", "Recorded: 8 segments (8.0 s)"] {
      #expect(info.stdoutText.contains(line), "\(line) in \(info.stdoutText)")
    }
  }
}
