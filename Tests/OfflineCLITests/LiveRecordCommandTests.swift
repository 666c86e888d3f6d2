import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` on a live HLS playlist (issue 41): it records, says so first, stops on
/// Ctrl-C or `--record-for` with a playable copy, and after a kill -9 the same command goes
/// on into the same folder with the downtime as one gap. The live origin publishes one
/// one-second segment a second.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveRecordCommandTests {
  /// What `live.json` says of a recording: its gaps (numbers and reason), the recorded runs
  /// and why it finished.
  struct LiveState {
    var gaps: [(range: ClosedRange<Int>, reason: String)]
    var recorded: [Int]
    var finished: String?

    init(folder: String) throws {
      let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/live.json"))
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let journal = try #require(object["journal"] as? [String: Any])
      let ledger = journal["ledger"] as? [String: Any]
      gaps = ((ledger?["gaps"] as? [[String: Any]]) ?? []).compactMap { gap in
        guard let bounds = gap["sequences"] as? [Int], bounds.count == 2,
          let reason = gap["reason"] as? String
        else { return nil }
        return (bounds[0]...bounds[1], reason)
      }
      let runs = ((journal["recorded"] as? [String: Any])?["runs"] as? [[Int]]) ?? []
      recorded = runs.flatMap { $0.count == 2 ? Array($0[0]...$0[1]) : [] }
      finished = object["finished"] as? String
    }
  }

  /// Waits (at most 30 s) until `playlist` lists at least `count` segments.
  func waitForSegments(_ count: Int, in playlist: String) async throws {
    for _ in 0..<300 {
      let text = (try? String(contentsOfFile: playlist, encoding: .utf8)) ?? ""
      if text.components(separatedBy: "#EXTINF").count - 1 >= count { return }
      try await Task.sleep(for: .milliseconds(100))
    }
    Issue.record("\(playlist) never listed \(count) segments")
  }

  /// Decodes a copy of the growing `playlist` closed with `EXT-X-ENDLIST`: every segment it
  /// lists is on disk and decodes (ffmpeg would otherwise wait for the playlist to grow).
  func expectGrowingPlaylistDecodes(_ playlist: String) async throws {
    let text = try String(contentsOfFile: playlist, encoding: .utf8)
    #expect(text.hasPrefix("#EXTM3U") && text.contains("#EXT-X-PLAYLIST-TYPE:EVENT"), "\(text)")
    #expect(!text.contains("#EXT-X-ENDLIST"))
    let closed = (playlist as NSString).deletingLastPathComponent + "/closed.m3u8"
    try (text + "#EXT-X-ENDLIST\n").write(toFile: closed, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: closed) }
    let decoded = try await FFmpeg.decode(closed)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(decoded.duration > 0)
  }

  /// A recording made by `offline get` of a live origin, run to its end in a fresh folder.
  struct RecordedGet {
    /// The origin, stopped once the command returned.
    let origin: LiveOrigin
    /// The folder holding the store (`s`) and the recording (`live`); deleted with it.
    let work: TemporaryDirectory
    /// The recording's folder.
    var out: String { work.url.appending(path: "live").path }
    /// What the command said and how it exited.
    let result: OfflineRun
  }

  /// Starts a live origin of `schedule` and runs `offline get` on it into a fresh folder, with
  /// `arguments` after the URL and the output, until the command returns.
  func recordedGet(_ schedule: LiveOrigin.Schedule, _ arguments: [String]) async throws
    -> RecordedGet
  {
    let origin = try await LiveOrigin(schedule)
    try origin.start()
    defer { origin.stop() }
    let get = try await InProcessOffline.get(origin.url, arguments, timeout: 60)
    return RecordedGet(origin: origin, work: get.work, result: get.result)
  }

  @Test func getRecordsALiveStreamAndSaysSoOnItsFirstLine() async throws {
    let recording = try await recordedGet(
      .init(segmentCount: 8, window: 5, initialSegments: 3), ["--from-start"])
    let (origin, out, result) = (recording.origin, recording.out, recording.result)
    #expect(result.status == 0, "\(result.stderrText)")
    let first = result.stderrText.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("Recording live stream"), "\(result.stderrText)")
    let state = try LiveState(folder: out)
    #expect(state.finished == "endList")
    #expect(state.gaps.isEmpty)
    #expect(state.recorded == Array(origin.schedule.sequences))
    let decoded = try await FFmpeg.decode(out + "/index.m3u8")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - 8) < 0.6, "\(decoded.duration)")
  }

  /// `add` queues a recording with its options (the queue is the path `get` uses): `run`
  /// records from the start and the content ends downloaded.
  @Test func addQueuesARecordingThatRunRecordsWithItsOptions() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 8, window: 6, initialSegments: 4))
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start"])
    try origin.start()
    defer { origin.stop() }
    let run = try await fixture.offline(["run", "--quiet"], timeout: 60)
    #expect(run.status == 0, "\(run.stderrText)")
    let entry = try #require(try await fixture.entry(id))
    #expect(entry.state == "downloaded")
    #expect(entry.path.hasSuffix("index.m3u8"), "\(entry.path)")
    let state = try LiveState(folder: (entry.path as NSString).deletingLastPathComponent)
    #expect(state.finished == "endList")
    #expect(state.recorded == Array(origin.schedule.sequences), "from the start")
    #expect(try await FFmpeg.decode(entry.path).errors.isEmpty)
  }

  @Test func recordForStopsAtThatMuchRecordedMedia() async throws {
    let recording = try await recordedGet(
      .init(segmentCount: 12, window: 6, initialSegments: 4),
      ["--from-start", "--record-for", "5s"])
    let (out, result) = (recording.out, recording.result)
    #expect(result.status == 0, "\(result.stderrText)")
    let state = try LiveState(folder: out)
    #expect(state.finished == "durationReached")
    #expect(state.recorded.count >= 5 && state.recorded.count < 9, "\(state.recorded)")
    #expect(try await FFmpeg.decode(out + "/index.m3u8").errors.isEmpty)
  }

  @Test func ctrlCStopsTheRecordingAndLeavesItPlayable() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 30, window: 5, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "live").path
    let run = try OfflineBinary.start(
      ["get", origin.url.absoluteString, "-o", out, "--quiet"],
      store: work.url.appending(path: "s"))
    try await waitForSegments(4, in: out + "/index.m3u8")
    kill(run.processIdentifier, SIGINT)
    let status = await run.waitBounded(seconds: 20)
    #expect(status == 130)
    let state = try LiveState(folder: out)
    #expect(state.finished == "stopped")
    #expect(state.gaps.isEmpty)
    let text = try String(contentsOfFile: out + "/index.m3u8", encoding: .utf8)
    #expect(text.contains("#EXT-X-ENDLIST"))
    let decoded = try await FFmpeg.decode(out + "/index.m3u8")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(decoded.duration >= 3.5, "\(decoded.duration)")
  }

  @Test func aKillNineThenTheSameCommandGoesOnWithTheDowntimeAsOneGap() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 22, window: 4, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "s")
    let out = work.url.appending(path: "live").path
    let arguments = ["get", origin.url.absoluteString, "-o", out, "--quiet", "--from-start"]
    let run = try OfflineBinary.start(arguments, store: store)
    try await waitForSegments(4, in: out + "/index.m3u8")
    kill(run.processIdentifier, SIGKILL)
    _ = await run.waitBounded(seconds: 10)
    try await expectGrowingPlaylistDecodes(out + "/index.m3u8")
    let before = try LiveState(folder: out)
    #expect(before.finished == nil)
    // Down longer than the window (4 s): what went by meanwhile cannot be fetched.
    try await Task.sleep(for: .seconds(6))
    let again = try await InProcessOffline.run(
      ["--store", store.path] + arguments, timeout: 90)
    #expect(again.status == 0, "\(again.stderrText)")
    let after = try LiveState(folder: out)
    #expect(after.finished == "endList")
    #expect(after.gaps.count == 1, "\(after.gaps)")
    let gap = try #require(after.gaps.first)
    #expect(gap.reason == "notRunning")
    let first = origin.schedule.firstSequence
    let last = origin.schedule.sequences.upperBound
    // Every number is recorded or in the gap, and nothing recorded before the kill is lost.
    #expect(Set(after.recorded).union(gap.range) == Set(first...last), "\(after.recorded)")
    #expect(Set(before.recorded).isSubset(of: Set(after.recorded)))
    let decoded = try await FFmpeg.decode(out + "/index.m3u8")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    // The pictures' times jump over the gap: the decode ends where the last segment does.
    let span = Double((after.recorded.max() ?? 0) - (after.recorded.min() ?? 0) + 1)
    #expect(abs(decoded.duration - span) < 0.6, "\(decoded.duration)")
    let text = try String(contentsOfFile: out + "/index.m3u8", encoding: .utf8)
    #expect(text.components(separatedBy: "#EXT-X-DISCONTINUITY\n").count == 2, "\(text)")
  }

  /// Kills at random moments, each followed after a random downtime by the same command:
  /// every playlist a kill leaves decodes, no number is unaccounted for, every gap is the
  /// recorder's downtime (never a segment the window still held), and the final copy plays.
  /// The origin runs twice as fast as real time: one 1 s segment every 0.5 s, six in the
  /// window, so each stays three target durations.
  @Test func killsAtRandomMomentsLoseOnlyWhatWentByWhileDown() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 60, window: 6, initialSegments: 4, interval: 0.5))
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
      try await Task.sleep(for: .milliseconds(Int.random(in: 300...2500, using: &generator)))
      guard run.isRunning else { break }  // the stream ended: nothing left to kill
      kill(run.processIdentifier, SIGKILL)
      kills += 1
      _ = await run.waitBounded(seconds: 10)
      if FileManager.default.fileExists(atPath: out + "/index.m3u8"),
        (try? LiveState(folder: out))?.recorded.isEmpty == false
      {
        try await expectGrowingPlaylistDecodes(out + "/index.m3u8")
      }
      try await Task.sleep(for: .milliseconds(Int.random(in: 0...3000, using: &generator)))
    }
    #expect(kills >= 3, "the runs were killed while they recorded")
    let last = try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 90)
    #expect(last.status == 0, "\(last.stderrText)")
    let state = try LiveState(folder: out)
    #expect(state.finished == "endList")
    #expect(state.gaps.count <= kills, "\(state.gaps)")
    #expect(state.gaps.allSatisfy { $0.reason == "notRunning" }, "\(state.gaps)")
    let first = try #require(state.recorded.min())
    let covered = state.gaps.reduce(into: Set(state.recorded)) { $0.formUnion($1.range) }
    #expect(covered == Set(first...origin.schedule.sequences.upperBound), "\(state.recorded)")
    let decoded = try await FFmpeg.decode(out + "/index.m3u8")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}
