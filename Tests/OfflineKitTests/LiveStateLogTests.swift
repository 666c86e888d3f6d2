import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// `live.json` and its append-only `live.log` (issue 41): what one event writes does not
/// grow with the recording, a torn append is skipped, and a finished recording is one
/// `live.json` again.
@Suite(.timed) struct LiveStateLogTests {
  static let url = URL(string: "http://127.0.0.1/live.m3u8")!

  /// A state that recorded `numbers`, each with its entry.
  static func state(recording numbers: ClosedRange<Int>) -> LiveRecordState {
    var state = LiveRecordState(playlistURL: url, journal: LiveJournal())
    state.journal.firstSequence = numbers.lowerBound
    state.journal.nextSequence = numbers.upperBound + 1
    state.journal.recorded = SequenceRanges(numbers)
    for number in numbers {
      state.entries[number] = .init(
        duration: 1, discontinuitySequence: 0, local: String(format: "s%06d.ts", number))
    }
    return state
  }

  static func size(_ name: String, in folder: TemporaryDirectory) -> Int64? {
    FileSteps.regularFileSize(folder.file(name).path)
  }

  @Test func whatAnEventWritesDoesNotGrowAndAFinishCompactsTheLogIntoLiveJSON() throws {
    let folder = try TemporaryDirectory()
    var writer = LiveStateWriter(folder: folder.url, earlier: nil)
    var sizes: Set<Int64> = []
    for last in 100...160 {
      try writer.write(Self.state(recording: 100...last))
      sizes.insert(try #require(Self.size(LiveRecordState.fileName, in: folder)))
      #expect(LiveRecordState.read(in: folder.url) == Self.state(recording: 100...last))
    }
    // The journal's numbers grow by a digit or so; the entries stay out of live.json.
    #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) < 16, "\(sizes.sorted())")
    #expect(LiveRecordState.read(in: folder.url, replayingLog: false)?.entries.isEmpty == true)
    let log = try String(contentsOf: folder.file(LiveEntryLog.fileName), encoding: .utf8)
    #expect(log.split(separator: "\n").count == 61, "one line per segment")

    var finished = Self.state(recording: 100...160)
    finished.finished = .endList
    try writer.write(finished)
    #expect(Self.size(LiveEntryLog.fileName, in: folder) == nil)
    #expect(LiveRecordState.read(in: folder.url, replayingLog: false) == finished)
  }

  @Test func aRunGoingOnKeepsTheEntriesOfLiveJSONAndLogsOnlyItsNewOnes() throws {
    let folder = try TemporaryDirectory()
    var stopped = Self.state(recording: 100...120)
    stopped.finished = .stopped
    var first = LiveStateWriter(folder: folder.url, earlier: nil)
    try first.write(stopped)
    let earlier = try #require(LiveRecordState.read(in: folder.url))
    var writer = LiveStateWriter(folder: folder.url, earlier: earlier)
    try writer.write(Self.state(recording: 100...123))
    let head = try #require(LiveRecordState.read(in: folder.url, replayingLog: false))
    #expect(head.entries.keys.sorted() == Array(100...120))
    let log = try String(contentsOf: folder.file(LiveEntryLog.fileName), encoding: .utf8)
    #expect(log.split(separator: "\n").count == 3, "\(log)")
    #expect(LiveRecordState.read(in: folder.url) == Self.state(recording: 100...123))
  }

  /// A kill in the middle of an append leaves half a line: it is skipped, and the next
  /// append starts on a line of its own, so no later entry is lost with it.
  @Test func aTornAppendIsSkippedAndTheNextAppendStartsOnItsOwnLine() throws {
    let folder = try TemporaryDirectory()
    var writer = LiveStateWriter(folder: folder.url, earlier: nil)
    try writer.write(Self.state(recording: 100...101))
    let handle = try FileHandle(forWritingTo: folder.file(LiveEntryLog.fileName))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("{\"entry\":{\"duration\":1,\"disc".utf8))
    try handle.close()
    #expect(LiveRecordState.read(in: folder.url) == Self.state(recording: 100...101))
    let earlier = try #require(LiveRecordState.read(in: folder.url))
    var again = LiveStateWriter(folder: folder.url, earlier: earlier)
    try again.write(Self.state(recording: 100...103))
    #expect(LiveRecordState.read(in: folder.url) == Self.state(recording: 100...103))
  }

  /// A log left without `live.json` (a kill before the first write) belongs to no
  /// recording: a fresh one removes it.
  @Test func aLogWithoutLiveJSONIsRemovedByAFreshRecording() throws {
    let folder = try TemporaryDirectory()
    try LiveEntryLog.append(
      [7: .init(duration: 1, discontinuitySequence: 0, local: "s000007.ts")], in: folder.url,
      url: Self.url)
    _ = LiveStateWriter(folder: folder.url, earlier: nil)
    #expect(Self.size(LiveEntryLog.fileName, in: folder) == nil)
  }
}
