import TestTiming
import Testing

@testable import OfflineKit

/// The decision of how many pieces of a stream go at once (issue 14): one rule per test, no
/// I/O. Before it, eight went at once whatever the protocol, the link or the origin said.
@Suite(.timed) struct PieceConcurrencyTests {
  /// Finishes pieces as a run would: a clock and the running sum of bytes received.
  struct Feed {
    var time = Duration.zero
    var received: Int64 = 0

    /// `count` pieces finishing `interval` apart, `bytes` received between two finishes.
    mutating func finish(
      _ decision: inout PieceConcurrency, count: Int, every interval: Duration,
      bytes: Int64 = 100_000
    ) {
      for _ in 0..<count {
        time += interval
        received += bytes
        _ = decision.didFinish(received: received, at: time)
      }
    }
  }

  @Test func startsAtEightBeforeAnyResponse() {
    #expect(PieceConcurrency().limit == 8)
  }

  @Test func startsNoHigherThanTheConnectionCap() {
    #expect(PieceConcurrency(.init(maxConnections: 3)).limit == 3)
  }

  @Test func http2GoesToSixtyFourStreamsAtTheFirstAnswer() {
    var decision = PieceConcurrency()
    #expect(decision.didLearn(version: "HTTP/2") == 64)
    #expect(decision.wire == .http2)
  }

  /// The cap is on connections; HTTP/2 uses one, so its streams are not capped by it.
  @Test func theConnectionCapDoesNotCapHTTP2Streams() {
    var decision = PieceConcurrency(.init(maxConnections: 2))
    #expect(decision.didLearn(version: "HTTP/2") == 64)
  }

  @Test func http1StaysWhereItIsUntilAWindowIsMeasured() {
    var decision = PieceConcurrency()
    #expect(decision.didLearn(version: "HTTP/1.1") == 8)
    #expect(decision.wire == .http1)
  }

  @Test func onlyTheFirstAnswerDecidesTheWire() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    #expect(decision.didLearn(version: "HTTP/2") == 8)
    #expect(decision.wire == .http1)
  }

  /// With no earlier window to compare with, the first full one steps up.
  @Test func http1StepsUpAfterItsFirstWindow() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    var feed = Feed()
    feed.finish(&decision, count: 9, every: .milliseconds(40))
    #expect(decision.limit == 12)
  }

  /// A window of as many pieces as are in flight that took less than a quarter second is
  /// noise on a loaded machine: it waits for more.
  @Test func http1WaitsForAWindowOfAQuarterSecond() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    var feed = Feed()
    feed.finish(&decision, count: 9, every: .milliseconds(10))
    #expect(decision.limit == 8)
    feed.finish(&decision, count: 17, every: .milliseconds(10))
    #expect(decision.limit == 12)
  }

  @Test func http1KeepsSteppingWhileThroughputRisesAndStopsAtSixteen() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    // 8 at 40 ms apart, then 12 at 24 ms (faster), then 16 at 16 ms (faster again).
    var feed = Feed()
    feed.finish(&decision, count: 9, every: .milliseconds(40))
    feed.finish(&decision, count: 12, every: .milliseconds(24))
    #expect(decision.limit == 16)
    feed.finish(&decision, count: 16, every: .milliseconds(16))
    #expect(decision.limit == 16)
    #expect(decision.settled)
  }

  /// Pieces of one size on connections of one rate finish in batches, all of a batch at
  /// once: the bytes received while they ran, not the pieces that happened to finish in a
  /// window, say whether more connections paid.
  @Test func http1JudgesPiecesThatFinishInBatchesByTheBytesReceived() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    var feed = Feed()
    // Each batch takes 3 s; its pieces' bytes (30 KB each) arrive while it runs.
    for _ in 0..<8 {
      let inFlight = decision.limit
      feed.finish(&decision, count: 1, every: .seconds(3), bytes: Int64(inFlight) * 30_000)
      feed.finish(&decision, count: inFlight - 1, every: .zero, bytes: 0)
    }
    #expect(decision.limit == 16)
  }

  @Test func http1GivesTheStepBackWhenItGainedNothing() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    var feed = Feed()
    feed.finish(&decision, count: 9, every: .milliseconds(40))
    #expect(decision.limit == 12)
    // Twelve at the same pace: no gain of 10 %.
    feed.finish(&decision, count: 12, every: .milliseconds(40))
    #expect(decision.limit == 8)
    #expect(decision.settled)
  }

  @Test func http1NeverGoesAboveTheConnectionCap() {
    var decision = PieceConcurrency(.init(maxConnections: 10))
    _ = decision.didLearn(version: "HTTP/1.1")
    var feed = Feed()
    feed.finish(&decision, count: 9, every: .milliseconds(40))
    #expect(decision.limit == 10)
    feed.finish(&decision, count: 10, every: .milliseconds(2))
    #expect(decision.limit == 10)
  }

  @Test(arguments: [503, 429])
  func anOverloadAnswerHalvesAtOnce(status: Int) {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/2")
    #expect(decision.didAnswer(.status(status)) == 32)
  }

  /// The other pieces already sent meet the same overload; they do not halve it again.
  @Test func overloadsOfPiecesAlreadySentHalveOnlyOnce() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    for _ in 0..<3 { _ = decision.didAnswer(.status(503)) }
    #expect(decision.limit == 4)
  }

  /// Pins a fall to one piece at a time: the refusals of the eight pieces sent before the
  /// first backoff halved it three times (8, 4, 2, 1) within milliseconds, from an origin
  /// that takes two, and it never came back. Only answers to pieces sent after a backoff
  /// halve it again: one halving per flight of answers.
  @Test func anOverloadThatGoesOnHalvesAgainOnceTheFlightBeforeItAnswered() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    for _ in 0..<7 { _ = decision.didAnswer(.status(503)) }
    #expect(decision.limit == 4, "the other seven of the eight sent before it")
    _ = decision.didAnswer(.status(503))
    #expect(decision.limit == 2)
    for _ in 0..<3 { _ = decision.didAnswer(.status(503)) }
    #expect(decision.limit == 2)
    _ = decision.didAnswer(.status(503))
    #expect(decision.limit == 1)
    for _ in 0..<5 { _ = decision.didAnswer(.status(503)) }
    #expect(decision.limit == 1)
  }

  /// An overload met at one piece at a time cannot halve it, and does not lower where it
  /// recovers to: an origin that refused three at once still gets two again (before, the
  /// refusal at one made one the ceiling for the rest of the run).
  @Test func anOverloadAtOnePieceKeepsWhereItRecoversTo() {
    var decision = PieceConcurrency(.init(start: 3))
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    #expect(decision.limit == 1)
    for _ in 0..<3 { _ = decision.didAnswer(.status(200)) }
    _ = decision.didAnswer(.status(503))
    #expect(decision.limit == 1)
    var feed = Feed()
    feed.finish(&decision, count: 200, every: .milliseconds(1))
    #expect(decision.limit == 2, "one below the 3 it backed off from")
  }

  @Test func okAnswersAndClientErrorsDoNotBackOff() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/2")
    for status in [200, 206, 404, 403, 410, 416] { _ = decision.didAnswer(.status(status)) }
    #expect(decision.limit == 64)
  }

  @Test func threeFailuresCloseTogetherBackOff() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/2")
    _ = decision.didAnswer(.failure)
    _ = decision.didAnswer(.status(500))
    #expect(decision.limit == 64)
    #expect(decision.didAnswer(.failure) == 32)
  }

  @Test func failuresFarApartAreForgotten() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/2")
    var feed = Feed()
    for _ in 0..<4 {
      _ = decision.didAnswer(.failure)
      feed.finish(&decision, count: 64, every: .milliseconds(1))
    }
    #expect(decision.limit == 64)
  }

  @Test func aBackoffStopsHTTP1FromGrowing() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    var feed = Feed()
    feed.finish(&decision, count: 7, every: .milliseconds(1))
    #expect(decision.limit == 4, "no step of four after the window")
    #expect(decision.settled)
  }

  @Test func cleanFinishesAfterABackoffAddOneUpToBelowWhereItCame() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    #expect(decision.limit == 4)
    var feed = Feed()
    feed.finish(&decision, count: 8, every: .milliseconds(1))
    #expect(decision.limit == 5)
    feed.finish(&decision, count: 200, every: .milliseconds(1))
    #expect(decision.limit == 7, "one below the 8 it backed off from")
  }

  @Test func aFailureResetsTheCleanRun() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    var feed = Feed()
    feed.finish(&decision, count: 7, every: .milliseconds(1))
    _ = decision.didAnswer(.status(500))
    feed.finish(&decision, count: 7, every: .milliseconds(1))
    #expect(decision.limit == 4)
  }
}
