import Foundation
import TestSupport
import TestTiming
import Testing

/// Where a live recording starts and when a silent stream counts as ended, as the user
/// sets them (issue 41, item 2): `--live-offset` starts that far behind the live edge,
/// `--end-after` ends a stream whose playlist answers without a new segment for that long;
/// two starts, or a part or a silence of no length, are usage errors. The live origin
/// publishes one one-second segment a second.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveStartAndEndOptionTests {
  /// Runs `get` of `origin`'s stream with `arguments` into a fresh folder, releasing an
  /// origin held by its schedule once the recorder has read the playlist.
  static func record(
    _ origin: LiveOrigin, _ arguments: [String], in work: TemporaryDirectory
  ) async throws -> (OfflineRun, LiveRecordCommandTests.LiveState) {
    let out = work.url.appending(path: "live").path
    try origin.start()
    defer { origin.stop() }
    let run = Task {
      try await InProcessOffline.run(
        [
          "--store", work.url.appending(path: "s").path, "get", origin.url.absoluteString, "-o",
          out,
        ]
          + arguments, timeout: 90)
    }
    if origin.schedule.holdsAfter != nil {
      for _ in 0..<600 where origin.playlistRequests == 0 {
        try await Task.sleep(for: .milliseconds(50))
      }
      origin.release()
    }
    let result = try await run.value
    #expect(result.status == 0, "\(result.stderrText)")
    return (result, try LiveRecordCommandTests.LiveState(folder: out))
  }

  @Test func liveOffsetStartsThatFarBehindTheLiveEdge() async throws {
    // Ten one-second segments listed (100-109, held there until the recorder has read
    // them): 6 s back from the end at 10 s is the segment that begins at 4 s, 104. The
    // default live edge (3 s back) would start at 107, --from-start at 100.
    let origin = try await LiveOrigin(
      .init(segmentCount: 12, window: 12, initialSegments: 10, holdsAfter: 109))
    let (_, state) = try await Self.record(
      origin, ["--live-offset", "6s"], in: try TemporaryDirectory())
    #expect(state.recorded == Array(104...111), "\(state.recorded)")
    #expect(state.gaps.isEmpty, "\(state.gaps)")
    #expect(state.finished == "endList")
  }

  @Test func endAfterEndsAStreamSilentThatLong() async throws {
    // After segment 103 the playlist answers unchanged for 20 s: the default (six target
    // durations, 6 s) would take the stall for the end only after 6 s, and with 12 s more
    // the origin goes on; --end-after 3s ends the recording after 3 s, with 100-103.
    let origin = try await LiveOrigin(
      .init(segmentCount: 8, window: 8, initialSegments: 2, stalls: [103: 20]))
    let work = try TemporaryDirectory()
    let (result, state) = try await Self.record(
      origin, ["--from-start", "--end-after", "3s"], in: work)
    #expect(state.finished == "endedBySilence", "\(result.stderrText)")
    #expect(state.recorded == Array(100...103), "\(state.recorded)")
    let decoded = try await FFmpeg.decode(work.url.appending(path: "live/index.m3u8").path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - 4) < 0.6, "\(decoded.duration)")
  }

  @Test(arguments: [
    (["--from-start", "--live-offset", "30s"], "--live-offset and --from-start"),
    (["--split", "0"], "--split"), (["--end-after", "0"], "--end-after"),
    (["--live-offset", "soon"], "--live-offset"),
  ])
  func twoStartsOrALengthOfNothingIsAUsageError(_ arguments: [String], named: String)
    async throws
  {
    let work = try TemporaryDirectory()
    for command in ["get", "add"] {
      let result = try await InProcessOffline.run(
        [
          "--store", work.url.appending(path: "s").path, command,
          "http://127.0.0.1:9/live.m3u8",
        ] + arguments)
      #expect(result.status == 64, "\(command) \(arguments): \(result.stderrText)")
      #expect(result.stderrText.contains(named), "\(command): \(result.stderrText)")
    }
  }
}
