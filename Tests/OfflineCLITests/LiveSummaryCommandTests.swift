import Foundation
import TestSupport
import TestTiming
import Testing

/// `ls`, `info ID` and their `--json` show a live recording (issue 41, item 3): its
/// recorded segments and duration, and each gap with its numbers and reason. The origin
/// drops one segment (404), so the recording holds exactly one gap.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct LiveSummaryCommandTests {
  @Test func lsAndInfoShowTheRecordedSegmentsAndTheOneDroppedSegmentAsAGap() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 8, window: 6, initialSegments: 3, dropped: [103]))
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start"])
    try origin.start()
    defer { origin.stop() }
    let run = try await fixture.offline(["run", "--quiet"], timeout: 60)
    #expect(run.status == 0, "\(run.stderrText)")

    let table = try await fixture.offline(["ls"])
    #expect(table.status == 0)
    #expect(
      table.stdoutText.contains("live: finished (endList), 7 segments (7.0 s), 1 gap"),
      "\(table.stdoutText)")

    let listed = try await fixture.offline(["ls", "--json"])
    let array = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [Any])
    let object = try #require(array.first as? [String: Any])
    try expectLive(object["live"])

    let info = try await fixture.offline(["info", id])
    #expect(info.status == 0, "\(info.stderrText)")
    for line in [
      "ID: \(id)", "State: downloaded", "Live recording: finished (endList)",
      "Recorded: 7 segments (7.0 s)", "Gaps: 1 (1 segment missing)",
      "103: failed after retries",
    ] {
      #expect(info.stdoutText.contains(line), "\(line) in \(info.stdoutText)")
    }

    let json = try await fixture.offline(["info", id, "--json"])
    #expect(json.status == 0, "\(json.stderrText)")
    let shown = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
    #expect(shown["id"] as? String == id)
    try expectLive(shown["live"])

    let unknown = try await fixture.offline(["info", "nosuchid"])
    #expect(unknown.status == 1, "\(unknown.stdoutText)")
  }

  /// Expects the `live` object of a projection: 7 segments, 7 s, not recording, and the
  /// one gap at 103, failed after its retries.
  func expectLive(_ value: Any?) throws {
    let live = try #require(value as? [String: Any], "\(String(describing: value))")
    #expect(live["recordedSegments"] as? Int == 7)
    #expect(abs((live["recordedSeconds"] as? Double ?? 0) - 7) < 0.1, "\(live)")
    #expect(live["isRecording"] as? Bool == false)
    #expect(live["liveEdgeDelay"] == nil)
    let gaps = try #require(live["gaps"] as? [[String: Any]])
    #expect(gaps.count == 1, "\(gaps)")
    #expect(gaps.first?["firstSequence"] as? Int == 103)
    #expect(gaps.first?["lastSequence"] as? Int == 103)
    #expect(gaps.first?["reason"] as? String == "failedAfterRetries")
  }
}
