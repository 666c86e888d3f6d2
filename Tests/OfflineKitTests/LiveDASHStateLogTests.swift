import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// `live-dash.json` and its append-only `live-dash.log` (issue 41): what a segment event
/// writes does not grow with the recording, a kill between any two writes or in the middle
/// of an append reads back whole up to the last whole record, the log is folded into
/// `live-dash.json` when the recording ends or the log grows, and an older content without
/// a log still reads.
@Suite(.timed) struct LiveDASHStateLogTests {
  static let url = URL(string: "http://127.0.0.1/live.mpd")!

  /// A one-track recording that has recorded nothing yet.
  static func fresh() -> DASHLiveState {
    let path = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)
    var state = DASHLiveState(
      manifestURL: url, tracks: [DASHLiveState.Track(path, periodKey: "p0", ordinal: 0)])
    state.tracks[0].journal.firstSequence = 1
    state.tracks[0].journal.nextSequence = 1
    state.tracks[0].timescale = 1000
    return state
  }

  /// `state` after one segment event: segment `number` recorded.
  static func recording(_ number: Int, in state: inout DASHLiveState) {
    state.tracks[0].segments[number] = .init(
      local: "p0/a0-r0/t\(number).m4s", time: UInt64(number) * 2000, duration: 2000)
    state.tracks[0].journal.recorded.insert(number...number)
    state.tracks[0].journal.nextSequence = number + 1
    state.tracks[0].journal.recordedSeconds += 2
  }

  /// A state that recorded segments 1 to `count`.
  static func state(recording count: Int) -> DASHLiveState {
    var state = fresh()
    for number in stride(from: 1, through: count, by: 1) { recording(number, in: &state) }
    return state
  }

  static func size(_ name: String, in folder: URL) -> Int {
    Int(FileSteps.regularFileSize(folder.appending(path: name).path) ?? 0)
  }

  /// The bytes that `events` segment events take on disk in all, made on a recording that
  /// has recorded `recorded` segments: `live-dash.json` and its summary are replaced whole at
  /// every write, the log grows by what was appended.
  static func bytesWritten(events: Int, after recorded: Int, in folder: URL) throws -> Int {
    var writer = DASHLiveStateWriter(folder: folder, resuming: false)
    var state = state(recording: recorded)
    try writer.write(state, changed: [])
    var bytes = 0
    var log = size(DASHLiveState.log.fileName, in: folder)
    for number in (recorded + 1)...(recorded + events) {
      recording(number, in: &state)
      try writer.write(state, changed: [.init(track: 0, number: number)])
      let grown = size(DASHLiveState.log.fileName, in: folder)
      bytes +=
        size(DASHLiveState.fileName, in: folder)
        + size(DASHLiveState.SummaryFile.fileName, in: folder) + grown - log
      log = grown
    }
    #expect(DASHLiveState.read(in: folder) == state)
    return bytes
  }

  /// Pins the cost that grew with the recording: `live-dash.json` was written whole after
  /// every event, every segment in it, so a long recording wrote quadratically many bytes.
  @Test func whatASegmentEventWritesDoesNotGrowWithTheRecording() throws {
    let short = try TemporaryDirectory()
    let long = try TemporaryDirectory()
    let few = Double(try Self.bytesWritten(events: 100, after: 100, in: short.url)) / 100
    let many = Double(try Self.bytesWritten(events: 100, after: 10_000, in: long.url)) / 100
    // The numbers in a line gain a few digits, nothing more.
    #expect(many < few * 1.2, "\(few) → \(many) bytes per event")
    var whole = Self.state(recording: 10_100)
    whole.finished = .endList
    try whole.write(in: long.url)
    let folded = Double(Self.size(DASHLiveState.fileName, in: long.url))
    #expect(many * 100 < folded, "an event writes \(many) bytes, the whole state \(folded)")
  }

  /// A kill in the middle of an append leaves part of its last line, before
  /// `live-dash.json` was written: cut at every byte of that record, the state reads as it
  /// was before the event, and once the record is whole, with its segment too (which the
  /// journal does not count yet, so the offline MPD leaves it out). A rerun then appends on
  /// a line of its own.
  @Test func aLogCutAtAnyByteOfItsLastRecordReadsBackUpToTheLastWholeRecord() throws {
    let folder = try TemporaryDirectory()
    let files = [DASHLiveState.fileName, DASHLiveState.SummaryFile.fileName]
    var writer = DASHLiveStateWriter(folder: folder.url, resuming: false)
    var state = Self.fresh()
    try writer.write(state, changed: [])
    for number in 1...20 {
      Self.recording(number, in: &state)
      try writer.write(state, changed: [.init(track: 0, number: number)])
    }
    let before = state
    let heads = try files.map { try Data(contentsOf: folder.file($0)) }
    let logFile = folder.file(DASHLiveState.log.fileName)
    let logBefore = try Data(contentsOf: logFile)
    Self.recording(21, in: &state)
    try writer.write(state, changed: [.init(track: 0, number: 21)])
    let logAfter = try Data(contentsOf: logFile)
    #expect(logAfter.count > logBefore.count && logAfter.starts(with: logBefore))
    for (name, data) in zip(files, heads) { try data.write(to: folder.file(name)) }
    var whole = before
    whole.tracks[0].segments[21] = state.tracks[0].segments[21]
    for cut in logBefore.count...logAfter.count {
      try logAfter.prefix(cut).write(to: logFile)
      let read = DASHLiveState.read(in: folder.url)
      // The record is whole once its closing brace is in, with or without its line break.
      #expect(read == (cut >= logAfter.count - 1 ? whole : before), "cut at \(cut)")
      #expect(read?.offlineRepresentations == before.offlineRepresentations, "cut at \(cut)")
    }

    try logAfter.prefix(logBefore.count + 9).write(to: logFile)
    let earlier = try #require(DASHLiveState.read(in: folder.url))
    #expect(earlier == before)
    var again = DASHLiveStateWriter(folder: folder.url, resuming: true)
    Self.recording(21, in: &state)
    Self.recording(22, in: &state)
    try again.write(state, changed: [.init(track: 0, number: 21), .init(track: 0, number: 22)])
    #expect(DASHLiveState.read(in: folder.url) == state)
  }

  /// When the recording ends, `live-dash.json` alone holds it and the log is gone; a log a
  /// kill left before its removal is of an older generation and is not replayed, even over
  /// a state that dropped some of its segments (a split part cut at its share).
  @Test func anEndFoldsTheLogIntoLiveDashJSONAndALeftoverLogIsNotReplayed() throws {
    let folder = try TemporaryDirectory()
    var writer = DASHLiveStateWriter(folder: folder.url, resuming: false)
    var state = Self.fresh()
    try writer.write(state, changed: [])
    for number in 1...30 {
      Self.recording(number, in: &state)
      try writer.write(state, changed: [.init(track: 0, number: number)])
    }
    let logFile = folder.file(DASHLiveState.log.fileName)
    let leftover = try Data(contentsOf: logFile)
    state.finished = .durationReached
    try writer.write(state, changed: [])
    #expect(Self.size(DASHLiveState.log.fileName, in: folder.url) == 0)
    #expect(DASHLiveState.read(in: folder.url, replayingLog: false) == state)

    var kept = state
    kept.tracks[0].segments = kept.tracks[0].segments.filter { $0.key <= 20 }
    kept.tracks[0].journal.recorded = SequenceRanges(1...20)
    try kept.write(in: folder.url)
    try leftover.write(to: logFile)
    #expect(DASHLiveState.read(in: folder.url) == kept)
  }

  /// A content recorded before the log existed has `live-dash.json` alone, without a log
  /// generation: it reads as it is, and a run going on with it moves its segments into a
  /// log of a new generation at its first write.
  @Test func anOlderStateWithoutALogStillReadsAndGoesOn() throws {
    let folder = try TemporaryDirectory()
    var state = Self.state(recording: 12)
    state.finished = .stopped
    try LiveStateFile.write(state, named: DASHLiveState.fileName, in: folder.url, url: Self.url)
    #expect(DASHLiveState.read(in: folder.url) == state)
    #expect(DASHLiveState.Summary.read(in: folder.url) == DASHLiveState.Summary(state))

    state.finished = nil
    var writer = DASHLiveStateWriter(folder: folder.url, resuming: true)
    for number in 13...15 {
      Self.recording(number, in: &state)
      try writer.write(state, changed: [.init(track: 0, number: number)])
    }
    #expect(DASHLiveState.read(in: folder.url) == state)
    let head = try #require(DASHLiveState.read(in: folder.url, replayingLog: false))
    #expect(head.tracks[0].segments.isEmpty, "the segments moved into the log")
    let log = try String(contentsOf: folder.file(DASHLiveState.log.fileName), encoding: .utf8)
    #expect(log.split(separator: "\n").count == 15, "\(log)")
  }
}

extension DASHLiveState {
  /// What the offline MPD lists of each track.
  fileprivate var offlineRepresentations: [OfflineRepresentation?] {
    tracks.map { $0.offline() }
  }
}
