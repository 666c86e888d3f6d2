import Foundation
import OfflineHTTP
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: which failures send a stream's piece to its next source at once,
/// which are tried again first, in which order the sources are tried, and what the report
/// says. Values only; `StreamFailoverTests` runs them against nginx.
@Suite(.timed) struct StreamFailoverDecisionTests {
  static let url = URL(string: "https://cdn1.example/v/s1.m4s")!

  func status(_ code: Int) -> Transfer.Error {
    Transfer.Error(.status(code, retryAfter: nil), url: Self.url, destination: "")
  }

  func network(_ kind: HTTPError.Kind) -> Transfer.Error {
    Transfer.Error(.network(HTTPError(kind, url: Self.url)), url: Self.url, destination: "")
  }

  func piece(_ alternates: Int) -> StreamPiece {
    var piece = StreamPiece(remote: Self.url, local: "v/s1.m4s", slice: nil, estimatedBytes: 1)
    piece.alternates = (0..<alternates).map { URL(string: "https://cdn\($0 + 2).example/s1.m4s")! }
    return piece
  }

  @Test(arguments: [403, 404, 410, 500, 502, 503])
  func aSourceThatLacksTheSegmentOrFailsGivesWayAtOnce(code: Int) {
    #expect(StreamFailover.movesOnAtOnce(after: status(code)))
    #expect(StreamFailover.triesNext(after: status(code)))
  }

  @Test func aSourceThatCannotBeReachedGivesWayAtOnce() {
    #expect(StreamFailover.movesOnAtOnce(after: network(.cannotConnect)))
    #expect(StreamFailover.movesOnAtOnce(after: network(.cannotResolveHost)))
  }

  @Test func aCutIsTriedAgainThereBeforeTheNextSource() {
    #expect(!StreamFailover.movesOnAtOnce(after: network(.connectionLost)))
    #expect(StreamFailover.triesNext(after: network(.connectionLost)))
    #expect(!StreamFailover.movesOnAtOnce(after: status(408)))
  }

  @Test func whatAnotherSourceCannotMendEndsThePiece() {
    let canceled = Transfer.Error(.canceled, url: Self.url, destination: "")
    #expect(!StreamFailover.triesNext(after: canceled))
    #expect(!StreamFailover.triesNext(after: status(401)))
    #expect(!StreamFailover.triesNext(after: network(.redirectRefused(to: "ftp://x"))))
  }

  @Test func aSourceIsTriedLastAfterThreeFailuresInARowUntilItServesAgain() {
    let failover = StreamFailover(names: [Self.url, URL(string: "https://cdn2.example/")!])
    let piece = piece(1)
    #expect(failover.order(for: piece).map(\.source) == [0, 1])
    for _ in 0..<2 { failover.didFail(0, error: status(404)) }
    #expect(failover.order(for: piece).map(\.source) == [0, 1], "a segment missing here and there")
    failover.didFail(0, error: status(503))
    #expect(failover.order(for: piece).map(\.source) == [1, 0])
    // A piece an earlier run completed asks its own URL first: its record answers it.
    #expect(failover.order(for: piece, demoting: false).map(\.source) == [0, 1])
    failover.didServe(0, bytes: 10)
    #expect(failover.order(for: piece).map(\.source) == [0, 1])
  }

  @Test func theReportSaysWhatEachServedAndWhatFailedWhere() {
    let names = [Self.url, URL(string: "https://cdn2.example/")!]
    let failover = StreamFailover(names: names)
    failover.didServe(0, bytes: 100)
    failover.didFail(0, error: status(404))
    failover.didServe(1, bytes: 7)
    let reports = failover.reports
    #expect(reports.map(\.bytes) == [100, 7])
    #expect(reports.map(\.isPrimary) == [true, false])
    #expect(reports[0].dropped?.contains("1 piece failed there") == true, "\(reports[0])")
    #expect(reports[0].dropped?.contains("404") == true)
    #expect(reports[1].dropped == nil)
  }

  @Test func aStreamWithOneSourceReportsNothing() {
    let failover = StreamFailover(pieces: [piece(0)])
    failover.didServe(0, bytes: 5)
    #expect(failover.reports.isEmpty)
    #expect(failover.order(for: piece(0)).map(\.url) == [Self.url])
  }
}
