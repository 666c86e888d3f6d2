import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` on a live DASH presentation (issue 41 item 6): it records, says so first,
/// and stops at the end of the presentation or at `--record-for`, leaving a static offline
/// MPD that ffmpeg decodes. The origin makes one one-second segment available a second.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveDASHCommandTests {
  /// What `live-dash.json` says: per track, the recorded numbers and the gaps (how many,
  /// and each one's numbers and reason); why it finished.
  struct LiveState {
    var recorded: [[Int]]
    var gaps: [Int]
    var ledgers: [[(range: ClosedRange<Int>, reason: String)]]
    /// The key of each track's Period (`id:p1`).
    var periods: [String?]
    var finished: String?

    init(folder: String) throws {
      let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/live-dash.json"))
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let tracks = try #require(object["tracks"] as? [[String: Any]])
      let journals = tracks.compactMap { $0["journal"] as? [String: Any] }
      periods = tracks.map { $0["periodKey"] as? String }
      recorded = journals.map { journal in
        let runs = ((journal["recorded"] as? [String: Any])?["runs"] as? [[Int]]) ?? []
        return runs.flatMap { $0.count == 2 ? Array($0[0]...$0[1]) : [] }
      }
      gaps = journals.map { (($0["ledger"] as? [String: Any])?["gaps"] as? [Any])?.count ?? 0 }
      ledgers = journals.map { journal in
        let gaps = ((journal["ledger"] as? [String: Any])?["gaps"] as? [[String: Any]]) ?? []
        return gaps.compactMap { gap in
          guard let bounds = gap["sequences"] as? [Int], bounds.count == 2,
            let reason = gap["reason"] as? String
          else { return nil }
          return (bounds[0]...bounds[1], reason)
        }
      }
      finished = object["finished"] as? String
    }
  }

  /// Runs `offline get` on a fresh origin into a fresh folder with `arguments` after the
  /// URL and the output, until it returns: its folder, state and what it said.
  func recordedGet(_ arguments: [String]) async throws -> (
    work: TemporaryDirectory, out: String, result: OfflineRun
  ) {
    let origin = try await DASHLiveOrigin()
    try origin.start()
    defer { origin.stop() }
    return try await InProcessOffline.get(origin.url, arguments, timeout: 90)
  }

  @Test func getRecordsALivePresentationAndSaysSoOnItsFirstLine() async throws {
    let (work, out, result) = try await recordedGet(["--from-start"])
    _ = work
    #expect(result.status == 0, "\(result.stderrText)")
    let first = result.stderrText.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("Recording live stream"), "\(result.stderrText)")
    let state = try LiveState(folder: out)
    #expect(state.finished == "endList")
    #expect(state.recorded == [Array(1...12), Array(1...12)])
    #expect(state.gaps == [0, 0])
    let decoded = try await FFmpeg.decode(out + "/index.mpd")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - 12) < 0.6, "\(decoded.duration)")
  }

  @Test func recordForStopsAtThatMuchRecordedMedia() async throws {
    let (work, out, result) = try await recordedGet(["--from-start", "--record-for", "4s"])
    _ = work
    #expect(result.status == 0, "\(result.stderrText)")
    let state = try LiveState(folder: out)
    #expect(state.finished == "durationReached")
    let least = state.recorded.map(\.count).min() ?? 0
    #expect(least >= 4 && least < 8, "\(state.recorded)")
    let decoded = try await FFmpeg.decode(out + "/index.mpd")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(decoded.duration >= 3.5 && decoded.duration < 8.5, "\(decoded.duration)")
  }

  /// Waits (at most 30 s) until `live-dash.json` in `folder` holds `count` recorded
  /// segments on every track.
  func waitForSegments(_ count: Int, in folder: String) async throws {
    for _ in 0..<300 {
      if let state = try? LiveState(folder: folder), !state.recorded.isEmpty,
        state.recorded.allSatisfy({ $0.count >= count })
      {
        return
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    Issue.record("\(folder) never recorded \(count) segments")
  }

  @Test func ctrlCStopsTheRecordingAndLeavesItPlayable() async throws {
    let origin = try await DASHLiveOrigin()
    try origin.start()
    defer { origin.stop() }
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "live").path
    let run = try OfflineBinary.start(
      ["get", origin.url.absoluteString, "-o", out, "--quiet", "--from-start"],
      store: work.url.appending(path: "s"))
    try await waitForSegments(3, in: out)
    let partial = try await FFmpeg.decode(out + "/index-partial.mpd")
    #expect(partial.errors.isEmpty, "\(partial.errors)")
    #expect(partial.duration >= 2.5, "\(partial.duration)")
    kill(run.processIdentifier, SIGINT)
    let status = await run.waitBounded(seconds: 20)
    #expect(status == 130)
    let state = try LiveState(folder: out)
    #expect(state.finished == "stopped")
    #expect(state.gaps == [0, 0])
    let decoded = try await FFmpeg.decode(out + "/index.mpd")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(decoded.duration >= 2.5 && decoded.duration < 12, "\(decoded.duration)")
  }
}
