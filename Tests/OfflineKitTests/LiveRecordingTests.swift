import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// A live HLS recording's decisions (issue 41, first step): where it starts, when it
/// reloads, when it ends, one transition per test, with no clock, network or disk. The gap
/// ledger and resumes are in `LiveRecordingLedgerTests`.
@Suite(.timed) struct LiveRecordingTests {
  typealias Fixture = LiveFixture

  // MARK: Start point

  @Test func startsAtTheLiveEdgeThreeTargetDurationsFromTheEnd() {
    var recording = LiveRecording()
    let actions = recording.didReload(Fixture.window(0...9), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [7, 8, 9])
    #expect(recording.journal.firstSequence == 7)
  }

  @Test func startsAtTheOldestSegmentFromStart() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    let actions = recording.didReload(Fixture.window(3...9), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == Array(3...9))
  }

  @Test func startsTheGivenSecondsBackFromTheEdge() {
    var recording = LiveRecording(configuration: .init(start: .secondsBack(30)))
    let actions = recording.didReload(Fixture.window(0...9), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [5, 6, 7, 8, 9])
  }

  @Test func startsAtTheFirstSegmentWhenThePlaylistIsShorterThanTheEdge() {
    var recording = LiveRecording()
    let actions = recording.didReload(Fixture.window(4...5), at: Fixture.at(0))
    #expect(Fixture.fetched(actions) == [4, 5])
  }

  @Test func zeroSecondsBackRecordsOnlySegmentsStillToCome() {
    var recording = LiveRecording(configuration: .init(start: .secondsBack(0)))
    let first = recording.didReload(Fixture.window(0...9), at: Fixture.at(0))
    #expect(first == [.reload(after: .seconds(3))])
    let second = recording.didReload(Fixture.window(1...10), at: Fixture.at(3))
    #expect(Fixture.fetched(second) == [10])
  }

  @Test func anEmptyPlaylistWaitsForItsFirstSegment() {
    var recording = LiveRecording()
    let first = recording.didReload(Fixture.window(nil, emptyAt: 5), at: Fixture.at(0))
    #expect(first == [.reload(after: .seconds(3))])
    let second = recording.didReload(Fixture.window(5...5), at: Fixture.at(3))
    #expect(Fixture.fetched(second) == [5])
  }

  // MARK: Reload timing (RFC 8216 §6.3.4)

  @Test func reloadsAfterTheTargetDurationWhenThePlaylistChanged() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    let actions = recording.didReload(Fixture.window(1...3), at: Fixture.at(6))
    #expect(Fixture.others(actions) == [.reload(after: .seconds(6))])
  }

  @Test func reloadsAfterHalfTheTargetDurationWhenThePlaylistDidNotChange() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    let actions = recording.didReload(Fixture.window(0...2), at: Fixture.at(6))
    #expect(actions == [.reload(after: .seconds(3))])
  }

  @Test func anEventPlaylistThatGrowsFetchesOnlyTheNewSegments() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    _ = recording.didReload(Fixture.window(0...3, type: .event), at: Fixture.at(0))
    let actions = recording.didReload(Fixture.window(0...5, type: .event), at: Fixture.at(6))
    #expect(Fixture.fetched(actions) == [4, 5])
  }

  @Test func aWindowGoingBackwardsFetchesNothingTwiceAndCountsAsUnchanged() {
    var recording = Fixture.recording(fromStartOf: 4...8)
    let actions = recording.didReload(Fixture.window(2...6), at: Fixture.at(6))
    #expect(actions == [.reload(after: .seconds(3))])
    #expect(recording.journal.ledger.gaps.isEmpty)
  }

  // MARK: End

  @Test func endListFinishesOnceWhatIsLeftIsFetched() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    let actions = recording.didReload(Fixture.window(0...4, endList: true), at: Fixture.at(6))
    #expect(Fixture.others(actions) == [])
    #expect(Fixture.fetched(actions) == [3, 4])
    #expect(recording.didFetch(3) == [])
    #expect(recording.didFetch(4) == [.finish(.endList)])
    #expect(recording.isOver)
  }

  @Test func endListWithNothingLeftFinishesAtOnce() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    let actions = recording.didReload(Fixture.window(0...2, endList: true), at: Fixture.at(6))
    #expect(actions == [.finish(.endList)])
  }

  @Test func aPlaylistAnsweringWithoutNewSegmentsEndsBySilence() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    #expect(
      recording.didReload(Fixture.window(0...2), at: Fixture.at(33)) == [
        .reload(after: .seconds(3))
      ])
    #expect(
      recording.didReload(Fixture.window(0...2), at: Fixture.at(36)) == [
        .finish(.endedBySilence)
      ])
  }

  @Test func aStallShorterThanTheSilenceLimitIsNotAnEnd() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    _ = recording.didReload(Fixture.window(0...2), at: Fixture.at(30))
    let actions = recording.didReload(Fixture.window(1...3), at: Fixture.at(33))
    #expect(Fixture.fetched(actions) == [3])
    #expect(
      recording.didReload(Fixture.window(1...3), at: Fixture.at(60)) == [
        .reload(after: .seconds(3))
      ])
  }

  @Test func theSilenceLimitIsConfigurable() {
    let configuration = LiveRecording.Configuration(endAfterSilence: .fixed(.seconds(10)))
    var recording = Fixture.recording(fromStartOf: 0...2, configuration: configuration)
    #expect(
      recording.didReload(Fixture.window(0...2), at: Fixture.at(10)) == [
        .finish(.endedBySilence)
      ])
  }

  @Test func failingReloadsBackOffAndAreNotTakenForSilence() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    let waits = [6.0, 9, 15, 27, 39, 51].map {
      recording.didFailToReload(.noAnswer, at: Fixture.at($0))
    }
    #expect(
      waits == [
        [.reload(after: .seconds(3))], [.reload(after: .seconds(6))],
        [.reload(after: .seconds(12))], [.reload(after: .seconds(12))],
        [.reload(after: .seconds(12))], [.reload(after: .seconds(12))],
      ])
    let back = recording.didReload(Fixture.window(1...3), at: Fixture.at(60))
    #expect(Fixture.others(back) == [.reload(after: .seconds(6))])
  }

  /// Pins session 38's CI failure: an origin whose playlist failed for longer than the
  /// silence limit and whose first answer back brought nothing new ended the recording by
  /// silence at once, counting the failing time as silence.
  @Test func anUnchangedAnswerAfterFailingReloadsCountsTheSilenceFromIt() {
    let configuration = LiveRecording.Configuration(endAfterSilence: .fixed(.seconds(10)))
    var recording = Fixture.recording(fromStartOf: 0...2, configuration: configuration)
    _ = recording.didFailToReload(.httpStatus(503), at: Fixture.at(6))
    _ = recording.didFailToReload(.httpStatus(503), at: Fixture.at(9))
    let back = recording.didReload(Fixture.window(0...2), at: Fixture.at(15))
    #expect(back == [.reload(after: .seconds(3))])
    #expect(recording.didReload(Fixture.window(0...2), at: Fixture.at(24)).count == 1)
    #expect(
      recording.didReload(Fixture.window(0...2), at: Fixture.at(25)) == [
        .finish(.endedBySilence)
      ])
  }

  @Test func reloadsFailingForTheirLimitFailTheRecording() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    _ = recording.didFailToReload(.httpStatus(503), at: Fixture.at(6))
    let actions = recording.didFailToReload(.httpStatus(404), at: Fixture.at(120))
    #expect(actions == [.fail(.reloadsFailing(last: .httpStatus(404)))])
    #expect(recording.didReload(Fixture.window(1...3), at: Fixture.at(121)) == [])
  }

  @Test func aReloadFailingBeforeAnyAnswerFails() {
    var recording = LiveRecording()
    #expect(
      recording.didFailToReload(.noAnswer, at: Fixture.at(0)) == [
        .fail(.noPlaylist(.noAnswer))
      ])
  }

  // MARK: Stop

  @Test func aStopFinishesOnceTheAskedSegmentsAreSettled() {
    var recording = LiveRecording(configuration: .init(start: .fromStart))
    _ = recording.didReload(Fixture.window(0...1), at: Fixture.at(0))
    #expect(recording.didAskToStop(.durationReached, at: Fixture.at(1)) == [])
    #expect(recording.didReload(Fixture.window(0...2), at: Fixture.at(6)) == [])
    #expect(recording.didFetch(0) == [])
    #expect(
      recording.didFailToFetch(1) == [
        .recordGap(LiveGap(sequences: 1...1, reason: .failedAfterRetries)),
        .finish(.durationReached),
      ])
  }

  @Test func aStopWithNothingAskedFinishesAtOnce() {
    var recording = Fixture.recording(fromStartOf: 0...2)
    #expect(recording.didAskToStop(.user, at: Fixture.at(1)) == [.finish(.stopped)])
    #expect(recording.didAskToStop(.untilReached, at: Fixture.at(2)) == [])
  }
}
