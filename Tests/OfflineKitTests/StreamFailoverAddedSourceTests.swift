import Foundation
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a source added while a stream's pieces download (an HLS pathway clone
/// that a steering reload made) is tried for the pieces it names, in the order a steering
/// priority gives, and its report carries its pathway. Values only;
/// `HLSSteeringReloadCloneNginxTests` runs it against two nginx.
@Suite(.timed) struct StreamFailoverAddedSourceTests {
  static let primary = URL(string: "https://a.example/v/index.m3u8")!
  static let clone = URL(string: "https://b.example/v/index.m3u8")!

  func piece(_ name: String) -> StreamPiece {
    StreamPiece(
      remote: URL(string: "https://a.example/v/\(name)")!, local: "video/\(name)", slice: nil,
      estimatedBytes: 1)
  }

  @Test func anAddedSourceFollowsForThePiecesItNamesAndLeadsWhenPreferred() {
    let failover = StreamFailover(names: [Self.primary])
    failover.name(pathways: ["A"])
    #expect(failover.reports.isEmpty, "one source: nothing to report")
    let there = URL(string: "https://b.example/v/s1.m4s")!
    let rank = failover.add(Self.clone, pathway: "B", urls: ["video/s1.m4s": there])
    #expect(rank == 1)
    #expect(failover.order(for: piece("s1.m4s")).map(\.url) == [piece("s1.m4s").remote, there])
    #expect(failover.order(for: piece("s2.m4s")).map(\.source) == [0], "not named: not there")
    failover.prefer([1, 0])
    #expect(failover.order(for: piece("s1.m4s")).map(\.source) == [1, 0])
    failover.didServe(1, bytes: 10)
    #expect(failover.reports.map(\.url) == [Self.primary, Self.clone])
    #expect(failover.reports.map(\.pathway) == ["A", "B"])
    #expect(failover.reports.map(\.bytes) == [0, 10])
  }

  @Test func pathwaysOfAnotherCountChangeNothing() {
    let failover = StreamFailover(names: [Self.primary, Self.clone])
    failover.name(pathways: ["A"])
    #expect(failover.reports.map(\.pathway) == [nil, nil])
  }
}
