import DASHManifest
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Where a split live DASH recording cuts a part (`--split`, ``DASHLiveParts``): every
/// track at the same media time, the end of the track that recorded least, whatever each
/// track's segment duration.
@Suite(.timed) struct DASHLivePartsTests {
  /// A track whose segments `recorded` of `duration` units (at `timescale`) are on disk,
  /// numbered from 1, and whose next number is `next`.
  func track(
    _ set: Int, timescale: UInt64, duration: UInt64, recorded: [Int], failed: [Int] = [],
    next: Int
  ) -> DASHLiveState.Track {
    var track = DASHLiveState.Track(
      RepresentationPath(period: 0, adaptationSet: set, representation: 0), periodKey: "p",
      ordinal: 0)
    track.timescale = timescale
    track.initialization = "p0/a\(set)-r0/init.mp4"
    track.journal.firstSequence = 1
    track.journal.nextSequence = next
    track.journal.recorded = SequenceRanges(recorded)
    track.journal.recordedSeconds = Double(recorded.count) * Double(duration) / Double(timescale)
    for number in failed {
      track.journal.ledger.add(LiveGap(sequences: number...number, reason: .failedAfterRetries))
    }
    for number in recorded + failed {
      track.segments[number] = .init(
        local: "p0/a\(set)-r0/s\(number).m4s", time: UInt64(number - 1) * duration,
        duration: duration)
    }
    return track
  }

  func state() -> DASHLiveState {
    // Video: 2 s segments 1...5 (0 to 10 s). Audio: 1.92 s segments 1...8, number 7
    // (11.52 s) failed, so the audio went on to 15.36 s.
    var state = DASHLiveState(
      manifestURL: URL(string: "http://127.0.0.1/live.mpd")!,
      tracks: [
        track(0, timescale: 1_000, duration: 2_000, recorded: Array(1...5), next: 6),
        track(
          1, timescale: 48_000, duration: 92_160, recorded: [1, 2, 3, 4, 5, 6, 8], failed: [7],
          next: 9),
      ])
    state.finished = .durationReached
    return state
  }

  @Test func aPartIsCutAtTheEndOfTheTrackThatRecordedLeast() throws {
    let (kept, seed) = try #require(DASHLiveParts.cut(state()))
    // 10 s: the audio keeps its segments that start before, 6 (9.6 s) the last.
    #expect(kept.tracks[0].journal.recorded == SequenceRanges(1...5))
    #expect(kept.tracks[1].journal.recorded == SequenceRanges(1...6))
    #expect(kept.tracks[1].journal.ledger.gaps.isEmpty, "the gap at 11.52 s goes on")
    #expect(kept.tracks[1].journal.nextSequence == 7)
    #expect(Set(kept.tracks[1].segments.keys) == Set(1...6))
    #expect(abs(kept.tracks[1].journal.recordedSeconds - 6 * 1.92) < 1e-9)
    #expect(kept.tracks[0] == state().tracks[0])
    #expect(
      DASHLiveParts.cutOff(state(), kept: kept).sorted() == [
        "p0/a1-r0/s7.m4s", "p0/a1-r0/s8.m4s",
      ])
    // The next part starts each track at its first segment not kept, with nothing settled
    // and its init section to fetch again.
    #expect(seed.tracks.map(\.journal.nextSequence) == [6, 7])
    #expect(seed.tracks.map(\.journal.firstSequence) == [6, 7])
    #expect(seed.tracks.allSatisfy { $0.journal.recorded.isEmpty && $0.segments.isEmpty })
    #expect(seed.tracks.allSatisfy { $0.initialization == nil && $0.periodKey == "p" })
    #expect(seed.goesOn)
  }

  @Test func cuttingAPartAgainAfterAKillCutsItTheSame() throws {
    let (kept, seed) = try #require(DASHLiveParts.cut(state()))
    let (again, seedAgain) = try #require(DASHLiveParts.cut(kept))
    #expect(again == kept)
    #expect(seedAgain == seed)
  }

  @Test func aPartReachedItsShareStartsTheNextOneUnlessTheWholeLimitIsReached() throws {
    let parts: [(index: Int, state: DASHLiveState?)] = [(1, state())]
    guard case .start(let part, _, _) = DASHLiveParts.next(after: parts, recordFor: nil) else {
      Issue.record("a part that reached its share is followed by another")
      return
    }
    #expect(part == 2)
    #expect(DASHLiveParts.next(after: parts, recordFor: .seconds(10)) == .over(last: 1))
    var stopped = state()
    stopped.finished = .stopped
    #expect(DASHLiveParts.next(after: [(1, stopped)], recordFor: nil) == .goOn(part: 1))
    stopped.finished = .endList
    #expect(DASHLiveParts.next(after: [(1, stopped)], recordFor: nil) == .over(last: 1))
    #expect(DASHLiveParts.next(after: [], recordFor: nil) == .goOn(part: 1))
  }
}
