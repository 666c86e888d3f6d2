import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get --split` on a live DASH presentation (issue 41, items 5 and 6): consecutive
/// parts (`part001/`, `part002/`…), each a static offline MPD that ffmpeg decodes, every
/// track cut at the same media time, and together every segment once: the parts' pictures,
/// decoded one after another, are those of the whole recording.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveDASHSplitCommandTests {
  typealias LiveState = LiveDASHCommandTests.LiveState

  /// The parts in `folder`, in order, with what their `live-dash.json` says.
  static func parts(in folder: String) throws -> [(name: String, state: LiveState)] {
    try LiveSplitCommandTests.parts(in: folder, reading: LiveState.init(folder:))
  }

  /// Checks that `parts` hold every number of `1...count` once per track, in order, each
  /// part starting every track at the same number (the origin's tracks have one-second
  /// segments), each decoding without error.
  static func expectEverySegmentOnce(
    _ parts: [(name: String, state: LiveState)], in folder: String, count: Int
  ) async throws {
    for track in 0..<2 {
      let all = parts.flatMap { $0.state.recorded[track] }
      #expect(all == Array(1...count), "\(track): \(parts.map { ($0.name, $0.state.recorded) })")
    }
    for part in parts {
      #expect(part.state.gaps == [0, 0], "\(part.name): \(part.state.ledgers)")
      let starts = part.state.recorded.map(\.first)
      #expect(starts[0] == starts[1], "\(part.name) cut at one time: \(part.state.recorded)")
      let decoded = try await FFmpeg.decode(folder + "/" + part.name + "/index.mpd")
      #expect(decoded.errors.isEmpty, "\(part.name): \(decoded.errors)")
      let seconds = Double(part.state.recorded[0].count)
      #expect(abs(decoded.duration - seconds) < 0.6, "\(part.name): \(decoded.duration) s")
    }
  }

  /// The video pictures of `parts` decoded one after another.
  static func pictures(of parts: [(name: String, state: LiveState)], in folder: String)
    async throws -> [String]
  {
    var hashes: [String] = []
    for part in parts {
      hashes += try await FFmpeg.frameHashes(of: folder + "/" + part.name + "/index.mpd")
    }
    return hashes
  }

  @Test func partsHoldEverySegmentOnceAndTogetherAreTheWholeRecordingsPictures() async throws {
    let whole = try await LiveDASHCommandTests().recordedGet(["--from-start", "--quiet"])
    #expect(whole.result.status == 0, "\(whole.result.stderrText)")
    let (work, out, result) = try await LiveDASHCommandTests().recordedGet([
      "--from-start", "--quiet", "--split", "5s",
    ])
    _ = work
    #expect(result.status == 0, "\(result.stderrText)")
    let parts = try Self.parts(in: out)
    #expect(parts.count >= 2, "\(parts.map(\.name))")
    #expect(parts.first?.name == "part001")
    for part in parts.dropLast() {
      #expect(part.state.finished == "durationReached", "\(part.name)")
      #expect(part.state.recorded[0].count >= 4, "\(part.name): \(part.state.recorded)")
    }
    #expect(parts.last?.state.finished == "endList")
    try await Self.expectEverySegmentOnce(parts, in: out, count: DASHLiveOrigin.segmentCount)
    #expect(!FileManager.default.fileExists(atPath: out + "/index.mpd"), "parts only")
    let expected = try await FFmpeg.frameHashes(of: whole.out + "/index.mpd")
    #expect(expected.count >= 12, "\(expected.count) pictures in the whole recording")
    #expect(try await Self.pictures(of: parts, in: out) == expected)
  }

  /// A kill -9 while the second part records, then the same command at once: it goes on
  /// into that part, and the parts still hold every segment once.
  @Test func aKilledSplitRecordingGoesOnIntoItsLastPart() async throws {
    let origin = try await DASHLiveOrigin(segmentCount: 14)
    try origin.start()
    defer { origin.stop() }
    let run = try await InProcessOffline.getKilledAndRunAgain(
      origin.url, ["--quiet", "--from-start", "--split", "4s"],
      killWhen: { out in
        var recording = false
        for _ in 0..<300 where !recording {
          let state = try? LiveState(folder: out + "/part002")
          recording = (state?.recorded.map(\.count).min() ?? 0) >= 1
          if !recording { try await Task.sleep(for: .milliseconds(100)) }  // at most 30 s
        }
        #expect(recording, "part002 never recorded a segment")
      }, timeout: 90)
    let (out, again) = (run.out, run.result)
    #expect(again.status == 0, "\(again.stderrText)")
    let parts = try Self.parts(in: out)
    #expect(parts.count >= 3, "\(parts.map(\.name))")
    #expect(parts.last?.state.finished == "endList")
    try await Self.expectEverySegmentOnce(parts, in: out, count: 14)
  }

  /// Pins an empty last part: a presentation whose MPD lists its last segment 2.5 s before
  /// it turns `static`, its 12 segments split every 4 s, gives three parts of 4 segments,
  /// the last ended by its share, and no fourth part (as through the queue,
  /// `LiveDASHQueueSplitEndTests`).
  @Test func aPresentationEndingAtAPartsBoundaryMakesNoEmptyLastPart() async throws {
    let origin = try await DASHLiveOrigin(layout: .timeline, lingers: 2.5)
    try origin.start()
    defer { origin.stop() }
    let recording = try await InProcessOffline.get(
      origin.url, ["--from-start", "--quiet", "--split", "4s"], timeout: 90)
    let (out, result) = (recording.out, recording.result)
    #expect(result.status == 0, "\(result.stderrText)")
    let parts = try Self.parts(in: out)
    #expect(parts.map(\.name) == ["part001", "part002", "part003"])
    for part in parts {
      #expect(part.state.recorded.map(\.count) == [4, 4], "\(part.name): \(part.state.recorded)")
    }
    try await Self.expectEverySegmentOnce(parts, in: out, count: origin.segmentCount)
  }
}
