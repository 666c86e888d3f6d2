import Foundation
import TestSupport
import TestTiming
import Testing

/// `ls`, `info ID` and their `--json` show a live DASH recording as they show a live HLS one
/// (issue 41 items 3 and 6): its recorded segments and duration, and each gap with its
/// numbers (the segments' `$Number$`) and reason.
extension LiveDASHCommandTests {
  @Test func lsAndInfoShowTheRecordedSegmentsAndTheOneDroppedSegmentAsAGap() async throws {
    let origin = try await DASHLiveOrigin(dropped: [5])
    try origin.start()
    defer { origin.stop() }
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start"])
    let run = try await fixture.offline(["run", "--quiet"], timeout: 90)
    #expect(run.status == 0, "\(run.stderrText)")

    let table = try await fixture.offline(["ls"])
    #expect(table.status == 0)
    #expect(
      table.stdoutText.contains("live: finished (endList), 11 segments (11.0 s), 1 gap"),
      "\(table.stdoutText)")
    let listed = try await fixture.offline(["ls", "--json"])
    let array = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [Any])
    try expectLive((array.first as? [String: Any])?["live"])

    let info = try await fixture.offline(["info", id])
    #expect(info.status == 0, "\(info.stderrText)")
    for line in [
      "State: downloaded", "Live recording: finished (endList)",
      "Recorded: 11 segments (11.0 s)", "Gaps: 1 (1 segment missing)", "5: failed after retries",
    ] {
      #expect(info.stdoutText.contains(line), "\(line) in \(info.stdoutText)")
    }
    let json = try await fixture.offline(["info", id, "--json"])
    #expect(json.status == 0, "\(json.stderrText)")
    let shown = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
    try expectLive(shown["live"])
  }

  /// Expects the `live` object of a projection: 11 segments, 11 s, not recording, and the
  /// one gap at 5, failed after its retries.
  func expectLive(_ value: Any?) throws {
    let live = try #require(value as? [String: Any], "\(String(describing: value))")
    #expect(live["recordedSegments"] as? Int == 11)
    #expect(abs((live["recordedSeconds"] as? Double ?? 0) - 11) < 0.1, "\(live)")
    #expect(live["isRecording"] as? Bool == false)
    #expect(live["liveEdgeDelay"] == nil)
    #expect(live["finishReason"] as? String == "endList")
    let gaps = try #require(live["gaps"] as? [[String: Any]])
    #expect(gaps.count == 1, "\(gaps)")
    #expect(gaps.first?["firstSequence"] as? Int == 5)
    #expect(gaps.first?["lastSequence"] as? Int == 5)
    #expect(gaps.first?["reason"] as? String == "failedAfterRetries")
  }
}
