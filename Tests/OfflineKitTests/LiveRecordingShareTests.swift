import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// The share rule of a live recording (`--record-for`, a `--split` part's share; issue 41,
/// items 2 and 5), one transition per test, with no clock, network or disk: segments are
/// asked for while the seconds recorded plus those asked stay below the limit, the one that
/// reaches it included, however many the window lists at once. Pins the bug where a part
/// seeded with a backlog asked for the whole window and recorded 9 s for `--split 4s`.
@Suite(.timed) struct LiveRecordingShareTests {
  typealias Fixture = LiveFixture

  /// A recording from the start of its first window, `seconds` at most.
  static func recording(for seconds: Double) -> LiveRecording {
    LiveRecording(configuration: .init(start: .fromStart, recordFor: seconds))
  }

  /// A recording of `recordFor` seconds at most, going on from a run that recorded the
  /// one-second segments `recorded` (from 0) and asked for `asked` (number: seconds), its
  /// next number the one after them all.
  static func resumed(
    recorded: ClosedRange<Int>, asked: [Int: Double] = [:], recordFor: Double
  ) -> LiveRecording {
    var journal = LiveJournal()
    journal.firstSequence = 0
    journal.nextSequence = max(recorded.upperBound, asked.keys.max() ?? 0) + 1
    journal.recorded.insert(recorded)
    journal.recordedSeconds = Double(recorded.count)
    journal.asked = asked
    return LiveRecording(
      resuming: journal, configuration: .init(start: .fromStart, recordFor: recordFor))
  }

  @Test func aBacklogIsAskedForOnlyUpToTheShare() {
    var recording = Self.recording(for: 4)
    let actions = recording.didReload(
      Fixture.window(0...9, target: 1, duration: 1), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [0, 1, 2, 3])
    #expect(recording.journal.nextSequence == 4, "the rest is the next part's")
    #expect(recording.phase == .draining(.durationReached))
    #expect(Fixture.others(actions).isEmpty, "no reload once the share is spent")
  }

  @Test func theSegmentThatCrossesTheShareIsAsked() {
    var recording = Self.recording(for: 4)
    let actions = recording.didReload(
      Fixture.window(0...9, target: 3, duration: 3), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [0, 1], "3 s, then the one that crosses 4 s")
    #expect(recording.journal.nextSequence == 2)
  }

  @Test func segmentsInFlightCountInTheShare() {
    var recording = Self.recording(for: 4)
    _ = recording.didReload(Fixture.window(0...1, target: 1, duration: 1), at: Fixture.at(0))
    _ = recording.didFetch(0)
    // 1 s recorded, 1 s in flight: two more seconds may be asked for.
    let actions = recording.didReload(
      Fixture.window(0...6, target: 1, duration: 1), at: Fixture.at(1))
    #expect(Fixture.fetched(actions) == [2, 3])
    #expect(recording.journal.nextSequence == 4)
  }

  @Test func anUnspentShareAsksForEverySegmentAndReloads() {
    var recording = Self.recording(for: 10)
    let actions = recording.didReload(
      Fixture.window(0...2, target: 1, duration: 1), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [0, 1, 2])
    #expect(Fixture.others(actions) == [.reload(after: .seconds(1))])
    #expect(recording.phase == .recording)
  }

  @Test func aSpentShareFinishesOnceTheAskedSegmentsLand() {
    var recording = Self.recording(for: 2)
    _ = recording.didReload(Fixture.window(0...5, target: 1, duration: 1), at: Fixture.at(0))
    #expect(recording.didFetch(0).isEmpty)
    #expect(recording.didFetch(1) == [.finish(.durationReached)])
    #expect(recording.journal.recordedSeconds == 2)
    #expect(recording.journal.unaccounted().isEmpty)
  }

  @Test func aSegmentFailingOnceTheShareIsSpentIsAGapNotToppedUp() {
    var recording = Self.recording(for: 2)
    _ = recording.didReload(Fixture.window(0...5, target: 1, duration: 1), at: Fixture.at(0))
    _ = recording.didFetch(0)
    let actions = recording.didFailToFetch(1)
    #expect(actions.last == .finish(.durationReached))
    #expect(recording.journal.ledger.gap(containing: 1)?.reason == .failedAfterRetries)
    #expect(recording.journal.nextSequence == 2)
  }

  @Test func aSpentShareOnThePlaylistsLastSegmentIsTheStreamsEnd() {
    var recording = Self.recording(for: 3)
    _ = recording.didReload(
      Fixture.window(0...2, target: 1, duration: 1, endList: true), at: Fixture.at(0))
    #expect(recording.phase == .draining(.endList), "no next part: nothing is after it")
  }

  @Test func aSpentShareBeforeTheEndListLeavesTheRestToTheNextPart() {
    var recording = Self.recording(for: 2)
    _ = recording.didReload(
      Fixture.window(0...4, target: 1, duration: 1, endList: true), at: Fixture.at(0))
    #expect(recording.phase == .draining(.durationReached))
    #expect(recording.journal.nextSequence == 2)
  }

  @Test func aResumedPartAsksAgainWhatItAskedAndNothingPastItsShare() {
    var recording = Self.resumed(recorded: 0...0, asked: [1: 1], recordFor: 3)
    let actions = recording.didReload(
      Fixture.window(0...8, target: 1, duration: 1), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [1, 2])
    #expect(recording.journal.nextSequence == 3)
  }

  @Test func aShareAlreadyRecordedFinishesWithoutAsking() {
    var recording = Self.resumed(recorded: 0...3, recordFor: 4)
    let actions = recording.didReload(
      Fixture.window(2...8, target: 1, duration: 1), at: Fixture.at(0))
    #expect(actions == [.finish(.durationReached)])
    #expect(recording.journal.nextSequence == 4)
  }
}
