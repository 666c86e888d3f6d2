import Foundation
import TestSupport
import TestTiming
import Testing

/// A live DASH recording killed and run again (issue 41 items 4 and 6): the offline MPD a
/// kill leaves plays up to the last journalled segment, and the same command goes on into
/// the same folder with the time it was down as one `notRunning` gap per track.
extension LiveDASHCommandTests {
  /// The seconds the shortest track spans from its first recorded segment to the end of its
  /// last (gaps included): what the offline MPD lasts.
  func span(_ state: LiveState) -> Double {
    Double(state.recorded.map { ($0.max() ?? 0) - ($0.min() ?? 1) + 1 }.min() ?? 0)
  }

  /// Expects the MPD a kill left (`index-partial.mpd`) to decode without error as long as
  /// the recording spans.
  func expectPartialDecodes(in folder: String) async throws {
    let state = try LiveState(folder: folder)
    let partial = try await FFmpeg.decode(folder + "/index-partial.mpd")
    #expect(partial.errors.isEmpty, "\(partial.errors)")
    #expect(abs(partial.duration - span(state)) < 1, "\(partial.duration) s, \(state.recorded)")
  }

  @Test func aKillNineThenTheSameCommandGoesOnWithTheDowntimeAsOneGap() async throws {
    let origin = try await DASHLiveOrigin(segmentCount: 22, window: 4)
    try origin.start()
    defer { origin.stop() }
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "s")
    let out = work.url.appending(path: "live").path
    let arguments = ["get", origin.url.absoluteString, "-o", out, "--quiet", "--from-start"]
    let run = try OfflineBinary.start(arguments, store: store)
    try await waitForSegments(4, in: out)
    kill(run.processIdentifier, SIGKILL)
    _ = await run.waitBounded(seconds: 10)
    let before = try LiveState(folder: out)
    #expect(before.finished == nil)
    try await expectPartialDecodes(in: out)
    // Down longer than the window (4 s): what went by meanwhile cannot be fetched.
    try await Task.sleep(for: .seconds(6))
    let again = try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 90)
    #expect(again.status == 0, "\(again.stderrText)")
    let after = try LiveState(folder: out)
    #expect(after.finished == "endList")
    for track in after.recorded.indices {
      let ledger = after.ledgers[track]
      #expect(ledger.count == 1, "\(ledger)")
      let gap = try #require(ledger.first)
      #expect(gap.reason == "notRunning")
      // Every number is recorded or in the gap, and nothing recorded before the kill is lost.
      let recorded = Set(after.recorded[track])
      #expect(recorded.union(gap.range) == Set(1...origin.segmentCount), "\(recorded)")
      #expect(recorded.isDisjoint(with: gap.range))
      #expect(Set(before.recorded[track]).isSubset(of: recorded))
    }
    // The gap is a hole in a timeline of segments named by their times, not a SegmentList
    // (which ffmpeg 5.1 and mpv stop reading early when segments are short).
    let text = try String(contentsOfFile: out + "/index.mpd", encoding: .utf8)
    #expect(text.contains("t$Time$.m4s") && !text.contains("SegmentList"), "\(text)")
    let decoded = try await FFmpeg.decode(out + "/index.mpd")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    // The gap is skipped or lasts its time, never more than the whole presentation.
    let least = Double(after.recorded.map(\.count).min() ?? 0)
    #expect(decoded.duration >= least - 1 && decoded.duration < span(after) + 1)
  }

  /// Kills at random moments, each followed after a random downtime by the same command:
  /// every MPD a kill leaves decodes, no number is unaccounted for, every gap is the
  /// recorder's downtime, and the final copy plays. Each segment stays six seconds in the
  /// window, which a rerun's start (an MPD load, the init sections) fits in.
  @Test func killsAtRandomMomentsLoseOnlyWhatWentByWhileDown() async throws {
    let origin = try await DASHLiveOrigin(segmentCount: 40, window: 6)
    try origin.start()
    defer { origin.stop() }
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "s")
    let out = work.url.appending(path: "live").path
    let arguments = ["get", origin.url.absoluteString, "-o", out, "--quiet", "--from-start"]
    var generator = SystemRandomNumberGenerator()
    var kills = 0
    for _ in 0..<6 {
      let run = try OfflineBinary.start(arguments, store: store)
      try await Task.sleep(for: .milliseconds(Int.random(in: 800...3500, using: &generator)))
      guard run.isRunning else { break }  // the presentation ended: nothing left to kill
      kill(run.processIdentifier, SIGKILL)
      kills += 1
      _ = await run.waitBounded(seconds: 10)
      if let state = try? LiveState(folder: out), state.recorded.allSatisfy({ !$0.isEmpty }),
        FileManager.default.fileExists(atPath: out + "/index-partial.mpd")
      {
        try await expectPartialDecodes(in: out)
      }
      try await Task.sleep(for: .milliseconds(Int.random(in: 0...3000, using: &generator)))
    }
    #expect(kills >= 3, "the runs were killed while they recorded")
    let last = try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 90)
    #expect(last.status == 0, "\(last.stderrText)")
    let state = try LiveState(folder: out)
    #expect(state.finished == "endList")
    for track in state.recorded.indices {
      let ledger = state.ledgers[track]
      #expect(ledger.count <= kills, "\(ledger)")
      #expect(ledger.allSatisfy { $0.reason == "notRunning" }, "\(ledger)")
      let first = try #require(state.recorded[track].min())
      let covered = ledger.reduce(into: Set(state.recorded[track])) { $0.formUnion($1.range) }
      #expect(covered == Set(first...origin.segmentCount), "\(state.recorded[track])")
    }
    let decoded = try await FFmpeg.decode(out + "/index.mpd")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }

  @Test func recordUntilStopsAtThatTime() async throws {
    let until = Date().addingTimeInterval(6)
    let formatter = ISO8601DateFormatter()
    let (work, out, result) = try await recordedGet([
      "--from-start", "--record-until", formatter.string(from: until),
    ])
    _ = work
    #expect(result.status == 0, "\(result.stderrText)")
    let state = try LiveState(folder: out)
    #expect(state.finished == "untilReached")
    let least = state.recorded.map(\.count).min() ?? 0
    #expect(least >= 2 && least < DASHLiveOrigin.segmentCount, "\(state.recorded)")
    let decoded = try await FFmpeg.decode(out + "/index.mpd")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - span(state)) < 1, "\(decoded.duration)")
  }
}
