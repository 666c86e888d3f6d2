import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The snapshot's live summary of a DASH recording reads `live-dash-summary.json` and the
/// head of `live-dash.json`, never its segment entries, which grow with the recording (as HLS
/// leaves `live.log` unread); after a kill between the two writes, the journals of
/// `live-dash.json`.
@Suite(.timed) struct LiveDASHSummaryTests {
  /// A two-track recording of `count` segments each, one gap, still recording.
  func state(segments count: Int) -> DASHLiveState {
    let paths = [0, 1].map { RepresentationPath(period: 0, adaptationSet: $0, representation: 0) }
    var state = DASHLiveState(
      manifestURL: URL(string: "http://127.0.0.1/live.mpd")!,
      tracks: paths.map { DASHLiveState.Track($0, periodKey: "p0", ordinal: 0) })
    for track in state.tracks.indices {
      state.tracks[track].journal.firstSequence = 1
      state.tracks[track].journal.nextSequence = count + 3
      state.tracks[track].journal.recorded = SequenceRanges(1...count)
      state.tracks[track].journal.ledger.add(
        LiveGap(sequences: (count + 1)...(count + 1), reason: .fellOutOfWindow))
      state.tracks[track].journal.asked = [count + 2: 2]
      state.tracks[track].journal.recordedSeconds = Double(count) * (track == 0 ? 2 : 1.92)
      for number in 1...count {
        state.tracks[track].segments[number] = .init(
          local: "p0/a\(track)-r0/t\(number).m4s", time: UInt64(number), duration: 1)
      }
    }
    return state
  }

  /// `state` written to `folder` with each track's segment entries replaced by `count`
  /// entries that no segment decoder accepts.
  func writeWithUndecodableSegments(_ state: DASHLiveState, count: Int, in folder: URL) throws {
    try state.write(in: folder)
    let file = folder.appending(path: DASHLiveState.fileName)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    var tracks = try #require(object["tracks"] as? [[String: Any]])
    for index in tracks.indices {
      tracks[index]["segments"] = Dictionary(
        uniqueKeysWithValues: (0..<count).map { ("not a number \($0)", "not a segment") })
    }
    object["tracks"] = tracks
    try JSONSerialization.data(withJSONObject: object).write(to: file)
  }

  @Test func theSummaryOfALiveDASHRecordingIsTheSameReadFromItsJournalsAlone() throws {
    let folder = try TemporaryDirectory()
    let state = state(segments: 500)
    try state.write(in: folder.url)
    let summary = try #require(LiveRecordingSummary(folder: folder.url, downloading: true))
    #expect(summary == LiveRecordingSummary(state, downloading: true))
    #expect(summary.recordedSegments == 500)
    #expect(abs(summary.recordedSeconds - 960) < 1e-9)
    #expect(
      summary.gaps == [.init(firstSequence: 501, lastSequence: 501, reason: .fellOutOfWindow)])
    #expect(summary.isRecording && summary.liveEdgeDelay == 2)
  }

  /// Pins the cost: the summary used to decode the whole state, every segment entry
  /// included, so a snapshot cost more the longer the recording. Entries it cannot decode
  /// must not matter to it when it never decodes them.
  @Test func theSummaryNeverDecodesTheSegmentEntries() throws {
    let folder = try TemporaryDirectory()
    let state = state(segments: 40)
    try writeWithUndecodableSegments(state, count: 2_000, in: folder.url)
    #expect(DASHLiveState.read(in: folder.url) == nil, "the full state decodes its segments")
    let summary = try #require(LiveRecordingSummary(folder: folder.url, downloading: false))
    #expect(summary == LiveRecordingSummary(state, downloading: false))
    #expect(summary.recordedSegments == 40)
    #expect(!summary.isRecording)
  }

  /// Pins issue 41's flat summary: it decoded the whole `live-dash.json`, which grows with
  /// every segment; now it reads `live-dash-summary.json` and the head of `live-dash.json`.
  @Test func readingTheSummaryCostsTheSameForTenAndAHundredThousandSegments() throws {
    var read: [Int: (summary: DASHLiveState.Summary?, bytes: Int, file: Int)] = [:]
    for count in [10, 100_000] {
      let folder = try TemporaryDirectory()
      let state = state(segments: count)
      try state.write(in: folder.url)
      let (summary, bytes) = DASHLiveState.Summary.reading(in: folder.url)
      let file = try Data(contentsOf: folder.url.appending(path: DASHLiveState.fileName))
      read[count] = (summary, bytes, file.count)
      #expect(summary == DASHLiveState.Summary(state), "\(count)")
      #expect(
        LiveRecordingSummary(folder: folder.url, downloading: true)?.recordedSegments == count)
    }
    let short = try #require(read[10])
    let long = try #require(read[100_000])
    #expect(long.file > 5_000_000, "the full state of 100,000 segments: \(long.file) bytes")
    // The same bytes but for the digits of the larger numbers.
    #expect(long.bytes - short.bytes < 64, "\(short.bytes) then \(long.bytes) bytes read")
    #expect(long.bytes < 4_096, "\(long.bytes) bytes read")
  }

  /// A kill after `live-dash.json` is written and before its summary is: the summary on disk
  /// is one state behind, and the summary is read from `live-dash.json` instead.
  @Test func aKillBetweenTheTwoWritesLeavesTheSummaryOfTheFullState() throws {
    let folder = try TemporaryDirectory()
    let before = state(segments: 40)
    try before.write(in: folder.url)
    var after = state(segments: 41)
    after.tracks[0].journal.ledger.add(LiveGap(sequences: 50...51, reason: .notRunning))
    try after.write(in: folder.url, summary: false)
    let stale = try JSONDecoder().decode(
      DASHLiveState.SummaryFile.self,
      from: Data(contentsOf: folder.url.appending(path: DASHLiveState.SummaryFile.fileName)))
    #expect(stale.summary == DASHLiveState.Summary(before), "the summary file was left behind")
    let (summary, bytes) = DASHLiveState.Summary.reading(in: folder.url)
    #expect(summary == DASHLiveState.Summary(after))
    let full = try Data(contentsOf: folder.url.appending(path: DASHLiveState.fileName))
    #expect(bytes == full.count + DASHLiveState.SummaryFile.headBytes, "read whole")
    let live = try #require(LiveRecordingSummary(folder: folder.url, downloading: true))
    #expect(live == LiveRecordingSummary(after, downloading: true))
    #expect(live.recordedSegments == 41)
    // The next write puts them in step again.
    try after.write(in: folder.url)
    #expect(DASHLiveState.Summary.reading(in: folder.url).bytesRead < full.count)
  }

  /// A summary file that is torn or not one (a disk error, a hand edit) is never believed.
  @Test func anUnreadableSummaryFileIsReadFromTheFullStateInstead() throws {
    let folder = try TemporaryDirectory()
    let state = state(segments: 30)
    try state.write(in: folder.url)
    let file = folder.url.appending(path: DASHLiveState.SummaryFile.fileName)
    try Data(#"{"checkpoint":1,"summ"#.utf8).write(to: file)
    #expect(DASHLiveState.Summary.read(in: folder.url) == DASHLiveState.Summary(state))
    try FileManager.default.removeItem(at: file)
    #expect(DASHLiveState.Summary.read(in: folder.url) == DASHLiveState.Summary(state))
    let head = try Data(contentsOf: folder.url.appending(path: DASHLiveState.fileName)).prefix(14)
    #expect(String(decoding: head, as: UTF8.self) == #"{"checkpoint":"#)
  }
}
