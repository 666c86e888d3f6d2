import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get --split` on a live HLS playlist (issue 41, item 5): consecutive parts
/// (`part001/`, `part002/`…) of about that much media each, every one an offline copy that
/// plays on its own, and together every segment the live playlist published, each once.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveSplitCommandTests {
  typealias LiveState = LiveRecordCommandTests.LiveState

  /// The parts in `folder`, in order, with what their `live.json` says.
  static func parts(in folder: String) throws -> [(name: String, state: LiveState)] {
    try parts(in: folder, reading: LiveState.init(folder:))
  }

  /// The part folders (`part001`, `part002`…) in `folder`, in order, each with its state
  /// as `read` makes it from the part's path (a live DASH split's too).
  static func parts<State>(in folder: String, reading read: (String) throws -> State) throws
    -> [(name: String, state: State)]
  {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasPrefix("part") }.sorted()
    return try names.map { ($0, try read(folder + "/" + $0)) }
  }

  /// Checks that `parts` hold every number of `sequences` once, in order (each part's
  /// numbers after the part before's), and that each decodes to its own segments.
  static func expectEverySegmentOnce(
    _ parts: [(name: String, state: LiveState)], in folder: String, sequences: ClosedRange<Int>
  ) async throws {
    let all = parts.flatMap(\.state.recorded)
    #expect(all == Array(sequences), "\(parts.map { ($0.name, $0.state.recorded) })")
    for part in parts {
      #expect(part.state.gaps.isEmpty, "\(part.name): \(part.state.gaps)")
      let decoded = try await FFmpeg.decode(folder + "/" + part.name + "/index.m3u8")
      #expect(decoded.errors.isEmpty, "\(part.name): \(decoded.errors)")
      let seconds = Double(part.state.recorded.count)
      #expect(abs(decoded.duration - seconds) < 0.6, "\(part.name): \(decoded.duration) s")
    }
  }

  @Test func partsHoldEverySegmentOnceAndEachPlays() async throws {
    let recording = try await LiveRecordCommandTests().recordedGet(
      .init(segmentCount: 11, window: 6, initialSegments: 3),
      ["--from-start", "--split", "3s"])
    let (origin, out, result) = (recording.origin, recording.out, recording.result)
    #expect(result.status == 0, "\(result.stderrText)")
    let parts = try Self.parts(in: out)
    #expect(parts.count >= 3, "\(parts.map(\.name))")
    #expect(parts.first?.name == "part001")
    // Each part but the last reached its share; the last ended with the stream.
    for part in parts.dropLast() {
      #expect(part.state.finished == "durationReached", "\(part.name)")
      #expect(part.state.recorded.count >= 3, "\(part.name): \(part.state.recorded)")
    }
    #expect(parts.last?.state.finished == "endList")
    try await Self.expectEverySegmentOnce(parts, in: out, sequences: origin.schedule.sequences)
    #expect(!FileManager.default.fileExists(atPath: out + "/index.m3u8"), "parts only")
  }

  /// Pins the empty last part of `get --split`: the origin closes its playlist
  /// (`EXT-X-ENDLIST`) 2.5 s after its last segment, which ends the second part's share;
  /// a third part started then recorded nothing. Now the playlist is asked again until it
  /// lists more or closes, and nothing follows the second part.
  @Test func aPlaylistClosedJustAfterAPartsShareLeavesNoEmptyLastPart() async throws {
    let recording = try await LiveRecordCommandTests().recordedGet(
      .init(segmentCount: 8, window: 8, initialSegments: 2, endListAfter: 2.5),
      ["--from-start", "--split", "4s"])
    let (origin, out, result) = (recording.origin, recording.out, recording.result)
    #expect(result.status == 0, "\(result.stderrText)")
    let parts = try Self.parts(in: out)
    #expect(parts.map(\.name) == ["part001", "part002"], "\(parts.map(\.name))")
    try await Self.expectEverySegmentOnce(parts, in: out, sequences: origin.schedule.sequences)
  }

  /// A kill -9 while the second part records, then the same command at once: it goes on
  /// into that part, and the parts still hold every segment once.
  @Test func aKilledSplitRecordingGoesOnIntoItsLastPart() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 14, window: 8, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let run = try await InProcessOffline.getKilledAndRunAgain(
      origin.url, ["--quiet", "--from-start", "--split", "4s"],
      killWhen: { out in
        try await LiveRecordCommandTests().waitForSegments(1, in: out + "/part002/index.m3u8")
      }, timeout: 90)
    let (out, again) = (run.out, run.result)
    #expect(again.status == 0, "\(again.stderrText)")
    let parts = try Self.parts(in: out)
    #expect(parts.count >= 3, "\(parts.map(\.name))")
    #expect(parts.last?.state.finished == "endList")
    try await Self.expectEverySegmentOnce(parts, in: out, sequences: origin.schedule.sequences)
  }

  @Test func splitDoesNotGoWithAnExportFile() async throws {
    let work = try TemporaryDirectory()
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "s").path, "get", "http://127.0.0.1:9/live.m3u8",
      "-o", work.url.appending(path: "out.mp4").path, "--split", "10m",
    ])
    #expect(result.status == 64)
    #expect(result.stderrText.contains("--split"), "\(result.stderrText)")
  }
}
