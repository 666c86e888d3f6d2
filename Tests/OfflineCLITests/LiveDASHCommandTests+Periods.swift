import Foundation
import TestSupport
import TestTiming
import Testing

/// A live DASH recording of several Periods killed in its first and run again once that
/// Period has left the MPD (issue 41 item 6): it goes on into the Periods that followed; the
/// first Period's segments after the kill and the second's before the rerun are each one
/// `notRunning` gap (never a silent hole); the offline MPD lists the three Periods in order.
extension LiveDASHCommandTests {
  /// The MPD `text` with only its Period `index`, starting at 0: what ffmpeg 5.1, which
  /// reads the first Period of an MPD only, decodes.
  func period(_ index: Int, of text: String) throws -> String {
    let pattern = try NSRegularExpression(pattern: "<Period[\\s\\S]*?</Period>")
    let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
    var result = text
    for (position, match) in matches.enumerated().reversed() {
      let range = try #require(Range(match.range, in: text))
      let kept = text[range].replacingOccurrences(
        of: #"start="[^"]*""#, with: #"start="PT0S""#, options: .regularExpression)
      result.replaceSubrange(range, with: position == index ? kept : "")
    }
    return result
  }

  @Test func aKillInOnePeriodThenTheSameCommandGoesOnIntoThePeriodsThatFollowed()
    async throws
  {
    let origin = try await DASHLiveOrigin(segmentCount: 18, window: 2, periodLength: 6)
    let started = Date()
    try origin.start()
    defer { origin.stop() }
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "s")
    let out = work.url.appending(path: "live").path
    let arguments = ["get", origin.url.absoluteString, "-o", out, "--quiet", "--from-start"]
    let run = try OfflineBinary.start(arguments, store: store)
    try await waitForSegments(2, in: out)
    kill(run.processIdentifier, SIGKILL)
    _ = await run.waitBounded(seconds: 10)
    let before = try LiveState(folder: out)
    #expect(before.periods.allSatisfy { $0 == "id:p0" }, "\(before.periods)")
    try await expectPartialDecodes(in: out)
    // Down until the first Period has left the MPD (the origin lists a Period until its end
    // plus the window plus 2 s: 10 s) and the second's first segments have left the window
    // (two seconds deep). The second Period stays listed until 16 s: the rerun has 5 s to
    // read it. (At 12.5 s it had 3.5 s, which a loaded CI machine once used up: the second
    // Period had left whole, a case LiveDASHMissedPeriodTests covers.)
    let back = started.addingTimeInterval(11)
    try await Task.sleep(for: .seconds(max(back.timeIntervalSinceNow, 0)))
    let again = try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 90)
    #expect(again.status == 0, "\(again.stderrText)")
    let after = try LiveState(folder: out)
    #expect(after.finished == "endList")
    #expect(after.periods == ["id:p0", "id:p0", "id:p1", "id:p1", "id:p2", "id:p2"])
    for track in after.recorded.indices {
      let ledger = after.ledgers[track]
      let first = ["id:p0": 1, "id:p1": 7, "id:p2": 13][after.periods[track] ?? ""] ?? 0
      let recorded = Set(after.recorded[track])
      let covered = ledger.reduce(into: recorded) { $0.formUnion($1.range) }
      #expect(covered == Set(first...(first + 5)), "\(after.recorded[track]) \(ledger)")
      #expect(ledger.allSatisfy { $0.reason == "notRunning" }, "\(ledger)")
      // The first Period's last segments and the second's first went by while it was
      // down; the third's did not.
      #expect(ledger.isEmpty == (first == 13), "\(ledger)")
      #expect(Set(before.recorded[track % 2]).isSubset(of: recorded) || first != 1)
    }
    let text = try String(contentsOfFile: out + "/index.mpd", encoding: .utf8)
    let ids = ["p0", "p1", "p2"].compactMap { text.range(of: #"id="\#($0)""#)?.lowerBound }
    #expect(ids.count == 3 && ids == ids.sorted(), "\(text)")
    for index in 0..<3 {
      let file = out + "/period\(index).mpd"
      try period(index, of: text).write(toFile: file, atomically: true, encoding: .utf8)
      let decoded = try await FFmpeg.decode(file)
      #expect(decoded.errors.isEmpty, "Period \(index): \(decoded.errors)")
      #expect(decoded.duration > 0.5, "Period \(index): \(decoded.duration) s")
    }
  }
}
