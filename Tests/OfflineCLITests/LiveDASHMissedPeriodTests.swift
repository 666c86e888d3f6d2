import Foundation
import TestSupport
import TestTiming
import Testing

/// A live DASH recording in the queue killed before a Period it had seen began, and run again
/// once that Period has left the MPD (issue 41 item 6): the ledger names the whole Period
/// (its `@id`, its span and its numbers) as missed while the recorder was not running, `ls`,
/// `info` and `--json` show it, and the offline MPD still decodes.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveDASHMissedPeriodTests {
  /// The folder of the one live DASH recording under `store`, once it has a state.
  static func recordingFolder(in store: URL) -> URL? {
    let files = FileManager.default.enumerator(at: store, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      if file.lastPathComponent == "live-dash.json" { return file.deletingLastPathComponent() }
    }
    return nil
  }

  /// Pins the silent hole: the tracks of a Period seen but not begun when the recorder was
  /// killed had no number yet, so when it left the MPD meanwhile nothing said it was missed.
  @Test func aPeriodThatLeftTheMPDWhileTheRecorderWasDownIsAGapOfItsOwn() async throws {
    // Periods of 6 s (p0 0-6 s, p1 6-12 s…), each listed 4 s before it begins; a segment
    // stays 2 s in the window.
    let origin = try await DASHLiveOrigin(
      segmentCount: 24, window: 2, periodLength: 6, periodLead: 4)
    let started = Date()
    try origin.start()
    defer { origin.stop() }
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start"])
    let run = try OfflineBinary.start(["run", "--quiet"], store: fixture.store)
    // Kill it once it has seen p1 (listed from 2 s), before p1's first segment (7 s).
    var seen: LiveDASHCommandTests.LiveState?
    for _ in 0..<200 where seen == nil {
      if let folder = Self.recordingFolder(in: fixture.store),
        let state = try? LiveDASHCommandTests.LiveState(folder: folder.path),
        state.periods.contains("id:p1")
      {
        seen = state
      } else {
        try await Task.sleep(for: .milliseconds(50))  // at most 10 s
      }
    }
    kill(run.processIdentifier, SIGKILL)
    _ = await run.waitBounded(seconds: 10)
    #expect(seen != nil, "the recorder never saw p1")
    let folder = try #require(Self.recordingFolder(in: fixture.store))
    let before = try LiveDASHCommandTests.LiveState(folder: folder.path)  // as the kill left it
    let p1 = before.periods.indices.filter { before.periods[$0] == "id:p1" }
    #expect(p1.allSatisfy { before.recorded[$0].isEmpty }, "\(before.recorded)")
    // Down until p1 (6-12 s) has left the MPD: its end plus the window, and a margin.
    let back = started.addingTimeInterval(16.5)
    try await Task.sleep(for: .seconds(max(back.timeIntervalSinceNow, 0)))
    let again = try await fixture.offline(["run", "--quiet"], timeout: 90)
    #expect(again.status == 0, "\(again.stderrText)")

    let after = try LiveDASHCommandTests.LiveState(folder: folder.path)
    #expect(after.finished == "endList")
    for track in after.periods.indices where after.periods[track] == "id:p1" {
      #expect(after.recorded[track].isEmpty)
      #expect(
        after.ledgers[track].map(\.range) == [7...12]
          && after.ledgers[track].first?.reason
            == "notRunning",
        "\(after.ledgers[track])")
    }
    let state =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: folder.appending(path: "live-dash.json"))) as? [String: Any]
    let missed = try #require(
      state?["missedPeriods"] as? [[String: Any]], "\(String(describing: state))")
    // p0 too when the kill came before its first segment landed (a loaded machine).
    // (It starts in the MPD's last Period: p1 when its first load came after 2 s.)
    let p0 = before.periods.indices.filter { before.periods[$0] == "id:p0" }
    let p0Missed = !p0.isEmpty && p0.allSatisfy { before.recorded[$0].isEmpty }
    #expect(missed.compactMap { $0["key"] as? String } == (p0Missed ? ["id:p0"] : []) + ["id:p1"])
    let p1Missed = missed.first { $0["key"] as? String == "id:p1" }
    #expect(p1Missed?["start"] as? Double == 6 && p1Missed?["end"] as? Double == 12, "\(missed)")

    let info = try await fixture.offline(["info", id])
    #expect(
      info.stdoutText.contains("whole Period p1 (6.0-12.0 s, segments 7-12): recorder not running"),
      "\(info.stdoutText)")
    let json = try await fixture.offline(["info", id, "--json"])
    let shown = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
    let gaps = try #require((shown["live"] as? [String: Any])?["gaps"] as? [[String: Any]])
    let whole = gaps.filter { $0["period"] as? String == "p1" }
    #expect(whole.count == 1, "\(gaps)")
    #expect(
      whole.first?["firstSequence"] as? Int == 7 && whole.first?["lastSequence"] as? Int == 12)
    #expect(
      whole.first?["periodStart"] as? Double == 6 && whole.first?["periodEnd"] as? Double == 12)
    #expect(whole.first?["reason"] as? String == "notRunning")
    let table = try await fixture.offline(["ls"])
    #expect(table.stdoutText.contains("live: finished (endList)"), "\(table.stdoutText)")

    let decoded = try await FFmpeg.decode(folder.appending(path: "index.mpd").path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(decoded.duration > 0.5, "\(decoded.duration) s")
  }
}
