import TestTiming
import Testing

@testable import OfflineExport

/// Cues onto the file's timeline domain by domain, without I/O.
@Suite(.timed) struct CueTimelineTests {
  /// Two domains of 10 s (segments of 2 s); the second's timestamps start again at 100 s of
  /// media time, put at 10 s of the file's timeline (shift -90); the first's media time
  /// starts at 1.4 s (shift -1.4).
  static let domains = [
    CueTimeline.Domain(start: 0, firstSegment: 2), .init(start: 10, firstSegment: 2),
  ]
  static let epochs = [
    CueTimeline.Epoch(start: 0, shift: -1.4), .init(start: 10.02, shift: -89.98),
  ]

  @Test func aMappedCueFollowsTheEpochOfItsDomain() {
    var timeline = CueTimeline(
      cues: [
        WebVTTCue(start: 2.4, end: 3.4, text: "first", isOnMediaTimeline: true),
        WebVTTCue(start: 101, end: 102, text: "second", isOnMediaTimeline: true, domain: 1),
      ], domains: Self.domains)
    #expect(timeline.take(upTo: 5, epochs: [Self.epochs[0]]).map(\.text) == ["first"])
    // The second domain waits until its epoch starts (or the copy is a second into it).
    #expect(timeline.take(upTo: 9.9, epochs: [Self.epochs[0]]).isEmpty)
    let second = timeline.take(upTo: 12, epochs: Self.epochs)
    #expect(second.count == 1)
    #expect(abs((second.first?.start ?? 0) - 11.02) < 1e-9)
  }

  @Test func anUnmappedCueCountsFromItsDomainsStart() {
    var timeline = CueTimeline(
      cues: [
        WebVTTCue(start: 0.5, end: 1, text: "a"),
        WebVTTCue(start: 0.5, end: 1, text: "b", domain: 1),
      ], domains: Self.domains)
    let cues = timeline.finish(epochs: Self.epochs)
    #expect(cues.count == 2)
    #expect(zip(cues.map(\.start), [0.5, 10.52]).allSatisfy { abs($0 - $1) < 1e-9 })
  }

  @Test func aDomainWithoutAJumpKeepsTheEpochBefore() {
    // No epoch starts near 10 s: the timestamps went on, and so does the shift.
    var timeline = CueTimeline(
      cues: [WebVTTCue(start: 13.4, end: 14, text: "on", isOnMediaTimeline: true, domain: 1)],
      domains: Self.domains)
    #expect(timeline.take(upTo: 10.5, epochs: [Self.epochs[0]]).isEmpty)
    let cues = timeline.take(upTo: 12.5, epochs: [Self.epochs[0]])
    #expect(cues.count == 1)
    #expect(abs((cues.first?.start ?? 0) - 12) < 1e-9)
  }
}
