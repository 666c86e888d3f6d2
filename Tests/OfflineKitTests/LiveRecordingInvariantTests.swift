import Foundation
import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// The gap ledger's promise under randomized, seeded reload sequences (issue 41: never a
/// silent hole): an origin whose window slides, jumps, goes back to stale answers, fails to
/// answer; segments fetched late, out of order or failing; kills resumed from the journal
/// saved as JSON; a stop. After every event no number is unaccounted for, and at the end every
/// number from the first to the last recorded is recorded or in the ledger, never both, and
/// none was asked twice in one process.
@Suite(.timed) struct LiveRecordingInvariantTests {
  /// A small deterministic generator (SplitMix64), so a failing seed replays.
  struct Generator: RandomNumberGenerator {
    /// The generator's state, its seed at first.
    var state: UInt64

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }

  /// One randomized run: what the recording asked for, and what it settled.
  struct Run {
    /// The seeded generator every random choice draws from.
    var random: Generator
    /// The recording under test (a new one after each kill).
    var recording: LiveRecording
    /// The seconds since ``LiveFixture/origin``.
    var now = 0.0
    /// The origin's newest segment number.
    var head = 20
    /// The numbers asked for in this process and not reported yet.
    var inFlight: [Int] = []
    /// Every number asked for in this process.
    var askedHere: Set<Int> = []
    /// The numbers asked for a second time in one process: always none.
    var asksTwice: [Int] = []
    /// The unaccounted numbers seen after an event: always none.
    var holes: [[Int]] = []

    /// A run drawn from `seed`, starting at the point the seed picks.
    init(seed: UInt64) {
      random = Generator(state: seed)
      let starts: [LiveRecording.StartPoint] = [.liveEdge, .fromStart, .secondsBack(13)]
      recording = LiveRecording(configuration: .init(start: starts[Int(seed % 3)]))
    }

    /// Carries out `actions`: notes each asked number, and whether it was asked before.
    mutating func take(_ actions: [LiveRecording.Action]) {
      for number in LiveFixture.fetched(actions) {
        if askedHere.contains(number) { asksTwice.append(number) }
        askedHere.insert(number)
        inFlight.append(number)
      }
      let unaccounted = recording.journal.unaccounted()
      if !unaccounted.isEmpty { holes.append(unaccounted) }
    }

    /// One random step of the origin, the network or the operator.
    mutating func step() throws {
      now += Double(Int.random(in: 1...6, using: &random))
      switch Int.random(in: 0..<20, using: &random) {
      case 0..<8:
        head += Int.random(in: 0...2, using: &random)
        let size = Int.random(in: 3...6, using: &random)
        take(
          recording.didReload(LiveFixture.window((head - size + 1)...head), at: LiveFixture.at(now))
        )
      case 8:
        head += Int.random(in: 5...12, using: &random)
        take(recording.didReload(LiveFixture.window((head - 3)...head), at: LiveFixture.at(now)))
      case 9:
        let back = Int.random(in: 1...8, using: &random)
        take(
          recording.didReload(
            LiveFixture.window((head - back - 3)...(head - back)), at: LiveFixture.at(now)))
      case 10:
        take(recording.didFailToReload(.noAnswer, at: LiveFixture.at(now)))
      case 11:
        try restart()
      default:
        settleOne()
      }
    }

    /// Settles one fetch in flight, picked at random; one in five fails.
    mutating func settleOne() {
      guard !inFlight.isEmpty else { return }
      let number = inFlight.remove(at: Int.random(in: 0..<inFlight.count, using: &random))
      if Int.random(in: 0..<5, using: &random) == 0 {
        take(recording.didFailToFetch(number))
      } else {
        take(recording.didFetch(number))
      }
    }

    /// A kill: the fetches in flight are lost, the journal goes through JSON, a new process
    /// resumes it where it left off or at the live edge.
    mutating func restart() throws {
      let data = try JSONEncoder().encode(recording.journal)
      let journal = try JSONDecoder().decode(LiveJournal.self, from: data)
      let point: LiveRecording.ResumePoint = Bool.random(using: &random) ? .whereLeft : .liveEdge
      recording = LiveRecording(
        resuming: journal, from: point, configuration: recording.configuration)
      inFlight = []
      askedHere = []
      head += Int.random(in: 0...10, using: &random)
    }
  }

  @Test(arguments: 0..<200) func noNumberIsLostOrAskedTwice(seed: UInt64) throws {
    var run = Run(seed: seed)
    for _ in 0..<150 where !run.recording.isOver {
      try run.step()
    }
    run.take(run.recording.didAskToStop(.user, at: LiveFixture.at(run.now + 1)))
    while !run.inFlight.isEmpty { run.settleOne() }

    let journal = run.recording.journal
    #expect(run.holes == [], "seed \(seed)")
    #expect(run.asksTwice == [], "seed \(seed)")
    #expect(run.recording.isOver, "seed \(seed)")
    if case .finished = run.recording.phase { #expect(journal.asked.isEmpty, "seed \(seed)") }
    guard let first = journal.firstSequence, let last = journal.lastRecorded else { return }
    for number in first...last {
      let recorded = journal.recorded.contains(number)
      let missing = journal.ledger.gap(containing: number) != nil
      #expect(recorded != missing, "seed \(seed): number \(number)")
    }
    #expect(journal.recorded.count + journal.ledger.count >= last - first + 1, "seed \(seed)")
  }

  /// Pins that the generator reaches every path the invariant is about: a run whose random
  /// steps never made a gap of some reason would prove nothing about it.
  @Test func theRandomRunsReachEveryKindOfGap() throws {
    var reasons: Set<LiveGap.Reason> = []
    var recorded = 0
    for seed in UInt64(0)..<50 {
      var run = Run(seed: seed)
      for _ in 0..<150 where !run.recording.isOver { try run.step() }
      reasons.formUnion(run.recording.journal.ledger.gaps.map(\.reason))
      recorded += run.recording.journal.recorded.count
    }
    #expect(reasons == [.fellOutOfWindow, .failedAfterRetries, .notRunning])
    #expect(recorded > 500)
  }

  @Test func aSteadyStreamThatKeepsSegmentsLongEnoughHasAnEmptyLedger() {
    var recording = LiveRecording()
    for step in 0..<100 {
      let head = 20 + step
      let actions = recording.didReload(
        LiveFixture.window((head - 5)...head), at: LiveFixture.at(Double(step) * 6))
      for number in LiveFixture.fetched(actions) { _ = recording.didFetch(number) }
    }
    #expect(recording.journal.ledger.gaps.isEmpty)
    #expect(recording.journal.recorded.runs == [18...119])
  }
}
