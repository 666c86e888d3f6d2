import Testing

@testable import OfflineKit

/// The decision of how many pieces of a stream go at once (issue 14): one rule per test, no
/// I/O. Before it, eight went at once whatever the protocol, the link or the origin said.
@Suite struct PieceConcurrencyTests {
  /// `count` pieces of `bytes` each finishing `interval` apart from `start`; returns the
  /// time of the last.
  @discardableResult
  static func finish(
    _ decision: inout PieceConcurrency, count: Int, bytes: Int64 = 100_000,
    from start: Duration, every interval: Duration
  ) -> Duration {
    var time = start
    for _ in 0..<count {
      time += interval
      _ = decision.didFinish(bytes: bytes, at: time)
    }
    return time
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
    Self.finish(&decision, count: 9, from: .zero, every: .milliseconds(10))
    #expect(decision.limit == 12)
  }

  @Test func http1KeepsSteppingWhileThroughputRisesAndStopsAtSixteen() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    // 8 at 10 ms apart, then 12 at 6 ms (faster), then 16 at 4 ms (faster again).
    var time = Self.finish(&decision, count: 9, from: .zero, every: .milliseconds(10))
    time = Self.finish(&decision, count: 12, from: time, every: .milliseconds(6))
    #expect(decision.limit == 16)
    Self.finish(&decision, count: 16, from: time, every: .milliseconds(3))
    #expect(decision.limit == 16)
    #expect(decision.settled)
  }

  @Test func http1GivesTheStepBackWhenItGainedNothing() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    let time = Self.finish(&decision, count: 9, from: .zero, every: .milliseconds(10))
    #expect(decision.limit == 12)
    // Twelve at the same pace: no gain of 10 %.
    Self.finish(&decision, count: 12, from: time, every: .milliseconds(10))
    #expect(decision.limit == 8)
    #expect(decision.settled)
  }

  @Test func http1NeverGoesAboveTheConnectionCap() {
    var decision = PieceConcurrency(.init(maxConnections: 10))
    _ = decision.didLearn(version: "HTTP/1.1")
    let time = Self.finish(&decision, count: 9, from: .zero, every: .milliseconds(10))
    #expect(decision.limit == 10)
    Self.finish(&decision, count: 10, from: time, every: .milliseconds(2))
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

  @Test func anOverloadThatGoesOnHalvesAgainOnceAsManyAnswersCame() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    for _ in 0..<4 { _ = decision.didAnswer(.status(503)) }
    #expect(decision.limit == 2)
    for _ in 0..<2 { _ = decision.didAnswer(.status(503)) }
    #expect(decision.limit == 1)
    for _ in 0..<5 { _ = decision.didAnswer(.status(503)) }
    #expect(decision.limit == 1)
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
    var time = Duration.zero
    for _ in 0..<4 {
      _ = decision.didAnswer(.failure)
      time = Self.finish(&decision, count: 64, from: time, every: .milliseconds(1))
    }
    #expect(decision.limit == 64)
  }

  @Test func aBackoffStopsHTTP1FromGrowing() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    Self.finish(&decision, count: 7, from: .zero, every: .milliseconds(1))
    #expect(decision.limit == 4, "no step of four after the window")
    #expect(decision.settled)
  }

  @Test func cleanFinishesAfterABackoffAddOneUpToBelowWhereItCame() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    #expect(decision.limit == 4)
    let time = Self.finish(&decision, count: 8, from: .zero, every: .milliseconds(1))
    #expect(decision.limit == 5)
    Self.finish(&decision, count: 200, from: time, every: .milliseconds(1))
    #expect(decision.limit == 7, "one below the 8 it backed off from")
  }

  @Test func aFailureResetsTheCleanRun() {
    var decision = PieceConcurrency()
    _ = decision.didLearn(version: "HTTP/1.1")
    _ = decision.didAnswer(.status(503))
    var time = Self.finish(&decision, count: 7, from: .zero, every: .milliseconds(1))
    _ = decision.didAnswer(.status(500))
    time = Self.finish(&decision, count: 7, from: time, every: .milliseconds(1))
    #expect(decision.limit == 4)
  }
}
