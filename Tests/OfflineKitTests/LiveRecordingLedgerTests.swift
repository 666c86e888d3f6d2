import Foundation
import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// A live HLS recording's gap ledger, what each segment carries, and resuming from a saved
/// journal (issue 41, first step), one transition per test.
@Suite(.timed) struct LiveRecordingLedgerTests {
  typealias Fixture = LiveFixture

  // MARK: Gaps

  @Test func aWindowThatMovedPastUnseenSegmentsLedgersThemAsFallenOut() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    let actions = recording.didReload(Fixture.window(6...8), at: Fixture.at(6))
    #expect(
      Fixture.others(actions) == [
        .recordGap(LiveGap(sequences: 3...5, reason: .fellOutOfWindow)),
        .reload(after: .seconds(6)),
      ])
    #expect(Fixture.fetched(actions) == [6, 7, 8])
  }

  @Test func aSegmentFailingAfterItsRetriesIsAGap() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    _ = recording.didReload(Fixture.window(0...2), at: Fixture.at(0))
    #expect(
      recording.didFailToFetch(1) == [
        .recordGap(LiveGap(sequences: 1...1, reason: .failedAfterRetries))
      ])
    #expect(
      recording.journal.ledger.gaps == [LiveGap(sequences: 1...1, reason: .failedAfterRetries)])
  }

  @Test func aFetchFailingAfterTheWindowLeftItFellOutOfTheWindow() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    _ = recording.didReload(Fixture.window(0...2), at: Fixture.at(0))
    _ = recording.didReload(Fixture.window(2...4), at: Fixture.at(6))
    #expect(
      recording.didFailToFetch(1) == [
        .recordGap(LiveGap(sequences: 1...1, reason: .fellOutOfWindow))
      ])
  }

  @Test func aSegmentReportedTwiceIsRecordedOnce() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    _ = recording.didReload(Fixture.window(0...0, duration: 5.5), at: Fixture.at(0))
    _ = recording.didFetch(0)
    #expect(recording.didFetch(0) == [])
    #expect(recording.didFailToFetch(0) == [])
    #expect(recording.journal.recordedSeconds == 5.5)
    #expect(recording.journal.ledger.gaps.isEmpty)
  }

  // MARK: What each segment carries

  @Test func keyRotationAndMapChangesAreCarriedOnEachSegment() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    let first = Key(method: .aes128, uri: "k1")
    let second = Key(method: .aes128, uri: "k2")
    let playlist = Fixture.window(
      0...3, key: { $0 < 2 ? first : second },
      map: { MapSection(uri: $0 < 3 ? "init1.mp4" : "init2.mp4") })
    let fetches = Fixture.fetches(recording.didReload(playlist, at: Fixture.at(0)))
    #expect(fetches.map(\.keys) == [[first], [first], [second], [second]])
    #expect(fetches.map(\.map?.uri) == ["init1.mp4", "init1.mp4", "init1.mp4", "init2.mp4"])
    #expect(fetches.map(\.uri) == ["seg0.ts", "seg1.ts", "seg2.ts", "seg3.ts"])
  }

  /// RFC 8216 §3 counts every tag before a segment's URI line, the first segment's own too.
  @Test func discontinuitySequenceCountsTheTagsUpToEachSegmentTheFirstOnesToo() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    let playlist = Fixture.window(10...13, discontinuitySequence: 4, discontinuities: [10, 12])
    let fetches = Fixture.fetches(recording.didReload(playlist, at: Fixture.at(0)))
    #expect(fetches.map(\.discontinuitySequence) == [5, 5, 6, 6])
    #expect(fetches.map(\.segment.discontinuity) == [true, false, true, false])
  }

  /// Regression: the first segment's tag was not counted, so the segments that came while
  /// the tagged one was first in the window got a number one lower than those before them,
  /// and the offline playlist a discontinuity where the stream had none.
  @Test func aSegmentKeepsItsDiscontinuityNumberWhileItsTaggedNeighbourIsFirst() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    let seen = Fixture.fetches(
      recording.didReload(Fixture.window(0...3, discontinuities: [2]), at: Fixture.at(0)))
    #expect(seen.map(\.discontinuitySequence) == [0, 0, 1, 1])
    let tagFirst = Fixture.fetches(
      recording.didReload(Fixture.window(2...5, discontinuities: [2]), at: Fixture.at(6)))
    #expect(tagFirst.map(\.discontinuitySequence) == [1, 1])
    let tagGone = Fixture.fetches(
      recording.didReload(Fixture.window(3...6, discontinuitySequence: 1), at: Fixture.at(12)))
    #expect(tagGone.map(\.discontinuitySequence) == [1])
  }

  @Test func aSegmentKeepsItsDiscontinuityNumberAfterTheTagLeavesTheWindow() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    let playlist = Fixture.window(2...4, discontinuitySequence: 1, discontinuities: [4])
    let fetches = Fixture.fetches(recording.didReload(playlist, at: Fixture.at(6)))
    #expect(fetches.map(\.discontinuitySequence) == [1, 2])
  }

  // MARK: Resume

  @Test func resumingWhereLeftRefetchesWhatTheWindowStillHoldsAndLedgersTheRest() {
    var before = LiveRecording(configuration: .init(start: .fromStart))
    _ = before.didReload(Fixture.window(0...4), at: Fixture.at(0))
    _ = before.didFetch(0)
    _ = before.didFetch(1)
    _ = before.didFetch(3)
    var after = LiveRecording(resuming: before.journal)
    let actions = after.didReload(Fixture.window(4...9), at: Fixture.at(600))
    #expect(
      Fixture.others(actions) == [
        .recordGap(LiveGap(sequences: 2...2, reason: .notRunning)), .reload(after: .seconds(6)),
      ])
    #expect(Fixture.fetched(actions) == [4, 5, 6, 7, 8, 9])
    #expect(after.journal.unaccounted() == [])
  }

  @Test func resumingAfterTheWindowMovedPastLedgersTheDowntimeAsNotRunning() {
    let before = Fixture.recording(fromStartOf: 0...2)
    var after = LiveRecording(resuming: before.journal)
    let actions = after.didReload(Fixture.window(10...12), at: Fixture.at(600))
    #expect(
      Fixture.others(actions) == [
        .recordGap(LiveGap(sequences: 3...9, reason: .notRunning)), .reload(after: .seconds(6)),
      ])
    #expect(Fixture.fetched(actions) == [10, 11, 12])
  }

  @Test func resumingAtTheLiveEdgeLedgersTheSkippedNumbersAsNotRunning() {
    let before = Fixture.recording(fromStartOf: 0...2)
    var after = LiveRecording(resuming: before.journal, from: .liveEdge)
    let actions = after.didReload(Fixture.window(1...9), at: Fixture.at(600))
    #expect(
      Fixture.others(actions) == [
        .recordGap(LiveGap(sequences: 3...6, reason: .notRunning)), .reload(after: .seconds(6)),
      ])
    #expect(Fixture.fetched(actions) == [7, 8, 9])
  }

  @Test func aResumeWaitsForAnAnswerThatIsNotBehindBeforeLedgeringAnything() {
    var before = LiveRecording(configuration: .init(start: .fromStart))
    _ = before.didReload(Fixture.window(0...9), at: Fixture.at(0))
    var after = LiveRecording(resuming: before.journal)
    #expect(
      after.didReload(Fixture.window(0...5), at: Fixture.at(60)) == [
        .reload(after: .seconds(3))
      ])
    #expect(after.journal.ledger.gaps.isEmpty)
    let actions = after.didReload(Fixture.window(2...10), at: Fixture.at(63))
    #expect(
      Fixture.others(actions) == [
        .recordGap(LiveGap(sequences: 0...1, reason: .notRunning)), .reload(after: .seconds(6)),
      ])
    #expect(Fixture.fetched(actions) == Array(2...10))
  }

  @Test func aStopBeforeTheFirstAnswerOfAResumeLedgersWhatTheEarlierRunAskedFor() {
    var before = LiveRecording(configuration: .init(start: .fromStart))
    _ = before.didReload(Fixture.window(0...1), at: Fixture.at(0))
    var after = LiveRecording(resuming: before.journal)
    #expect(
      after.didAskToStop(.user, at: Fixture.at(60)) == [
        .recordGap(LiveGap(sequences: 0...1, reason: .notRunning)), .finish(.stopped),
      ])
    #expect(after.journal.ledger.gaps == [LiveGap(sequences: 0...1, reason: .notRunning)])
  }

  @Test func aJournalSurvivesJSONAndGoesOnAsBefore() throws {
    var before = LiveRecording(configuration: .init(start: .fromStart))
    _ = before.didReload(Fixture.window(0...3), at: Fixture.at(0))
    _ = before.didFetch(0)
    _ = before.didFailToFetch(1)
    let data = try JSONEncoder().encode(before.journal)
    let journal = try JSONDecoder().decode(LiveJournal.self, from: data)
    #expect(journal == before.journal)
    var after = LiveRecording(resuming: journal)
    let actions = after.didReload(Fixture.window(2...4), at: Fixture.at(60))
    #expect(Fixture.fetched(actions) == [2, 3, 4])
  }

  @Test func aJournalSavedBeforeAnyAnswerStartsAfresh() {
    var after = LiveRecording(resuming: LiveJournal(), configuration: .init(start: .fromStart))
    let actions = after.didReload(Fixture.window(5...6), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [5, 6])
  }
}
