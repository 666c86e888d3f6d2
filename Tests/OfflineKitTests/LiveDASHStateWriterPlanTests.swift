import DASHManifest
import Foundation
import Testing

@testable import OfflineKit

/// What `DASHLiveStateWriter` decides to write after a live DASH event, without I/O: the
/// segments it is handed, not every segment of the recording.
@Suite(.timed) struct LiveDASHStateWriterPlanTests {
  typealias Change = DASHLiveStateWriter.Change

  static func writer() -> DASHLiveStateWriter {
    DASHLiveStateWriter(folder: URL(filePath: "/nonexistent/live"), resuming: false)
  }

  /// The lines of `plan`, with the generation it logs under.
  static func lines(_ plan: DASHLiveStateWriter.Plan) -> (UInt64, [DASHLiveState.LogLine], Bool)? {
    guard case .append(let generation, let lines, let fresh) = plan else { return nil }
    return (generation, lines, fresh)
  }

  /// Pins the CPU that grew with the recording: the writer compared every segment of the
  /// state with a map of its own at every event. Here segment 1 differs from what was
  /// logged without being named: a writer that still compared every segment would log it.
  @Test func aWriteAfterManySegmentsHandlesOnlyTheNewOnes() throws {
    var writer = Self.writer()
    var state = LiveDASHStateLogTests.state(recording: 1000)
    let first = try #require(Self.lines(writer.plan(state, changed: [Change]())))
    #expect(first.1.count == 1000 && first.2, "a new generation logs every segment")

    state.tracks[0].segments[1]?.local = "p0/a0-r0/elsewhere.m4s"
    LiveDASHStateLogTests.recording(1001, in: &state)
    let next = try #require(
      Self.lines(writer.plan(state, changed: [Change(track: 0, number: 1001)])))
    #expect(next.0 == first.0 && !next.2, "the same generation goes on")
    #expect(
      next.1 == [
        .init(
          generation: first.0, track: state.tracks[0].localFolder, number: 1001,
          segment: try #require(state.tracks[0].segments[1001]))
      ])
  }

  /// The lines of one write come by track, then number, one a segment however often it was
  /// named; a name of no track or no segment logs nothing.
  @Test func aWriteLogsEachNamedSegmentOnceInTrackAndNumberOrder() throws {
    var writer = Self.writer()
    var state = LiveDASHStateLogTests.fresh()
    let path = RepresentationPath(period: 0, adaptationSet: 1, representation: 0)
    state.tracks.append(DASHLiveState.Track(path, periodKey: "p0", ordinal: 0))
    _ = writer.plan(state, changed: [Change]())
    LiveDASHStateLogTests.recording(1, in: &state)
    LiveDASHStateLogTests.recording(2, in: &state)
    state.tracks[1].segments[7] = .init(local: "p0/a1-r0/t7.m4s", time: 7, duration: 1)
    let changed = [
      Change(track: 1, number: 7), Change(track: 0, number: 2), Change(track: 0, number: 1),
      Change(track: 0, number: 2), Change(track: 5, number: 1), Change(track: 0, number: 3),
    ]
    let plan = try #require(Self.lines(writer.plan(state, changed: changed)))
    #expect(
      plan.1.map { "\($0.track)#\($0.number)" } == ["p0/a0-r0#1", "p0/a0-r0#2", "p0/a1-r0#7"])
  }

  /// A finished recording is written whole, and a write after it starts a new generation
  /// that logs every segment again.
  @Test func aFinishedRecordingIsWrittenWholeAndTheNextWriteStartsANewGeneration() throws {
    var writer = Self.writer()
    var state = LiveDASHStateLogTests.state(recording: 5)
    let first = try #require(Self.lines(writer.plan(state, changed: [Change]())))
    state.finished = .stopped
    #expect(writer.plan(state, changed: [Change(track: 0, number: 5)]) == .whole)
    state.finished = nil
    let again = try #require(Self.lines(writer.plan(state, changed: [Change]())))
    #expect(again.2 && again.1.count == 5 && again.0 != first.0)
  }
}
