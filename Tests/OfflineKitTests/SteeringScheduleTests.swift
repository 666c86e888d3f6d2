import Foundation
import OfflineHTTP
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: the content steering manifest of HLS (RFC 8216bis §7.2) and DASH
/// (DASH-IF CTS 001) read and its requests planned without I/O, by the one schedule both
/// use: which JSON is a manifest, what each request carries, when the next one is due,
/// which source a new priority puts first, and which answers the log hears. Each decision
/// is one test, run with both protocols' names.
@Suite(.timed) struct SteeringScheduleTests {
  /// A protocol, as a test argument.
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case hls, dash
    var names: SteeringSchedule.Names { self == .hls ? .hls : .dash }
    /// The other protocol's priority key: a manifest under it is none of this one's.
    var otherKey: String { (self == .hls ? SteeringSchedule.Names.dash : .hls).priorityKey }
    var testDescription: String { rawValue }
  }

  static let server = URL(string: "https://steer.example/app/steer.json?session=1")!
  let start = ContinuousClock.now

  /// A manifest row: `KEY` stands for the protocol's priority key, `OTHER` for the other's.
  struct Row: Sendable, CustomTestStringConvertible {
    let json: String
    let priority: [String]?
    var ttl: Duration? = nil
    var reload: String? = nil
    var testDescription: String { json }

    func text(for kind: Kind) -> String {
      json.replacingOccurrences(of: "KEY", with: kind.names.priorityKey)
        .replacingOccurrences(of: "OTHER", with: kind.otherKey)
    }
  }

  static let rows: [Row] = [
    Row(
      json: #"{"VERSION":1,"TTL":10,"RELOAD-URI":"next.json","KEY":["b","a"]}"#,
      priority: ["b", "a"], ttl: .seconds(10), reload: "next.json"),
    Row(json: #"{"VERSION":1,"KEY":["a","","a",3,"b"]}"#, priority: ["a", "b"]),
    Row(json: #"{"VERSION":1,"TTL":-5,"RELOAD-URI":7,"KEY":["a"]}"#, priority: ["a"]),
    Row(json: #"{"VERSION":1,"TTL":0.5,"KEY":["a"]}"#, priority: ["a"], ttl: .milliseconds(500)),
    Row(json: #"{"VERSION":1,"RELOAD-URI":"","KEY":["a"]}"#, priority: ["a"]),
    Row(json: #"{"VERSION":2,"KEY":["a"]}"#, priority: nil),
    Row(json: #"{"KEY":["a"]}"#, priority: nil),
    Row(json: #"{"VERSION":1,"OTHER":["a"]}"#, priority: nil),
    Row(json: #"{"VERSION":1,"KEY":[]}"#, priority: nil),
    Row(json: #"{"VERSION":1,"KEY":["",""]}"#, priority: nil),
    Row(json: #"{"VERSION":1,"KEY":"a"}"#, priority: nil),
    Row(json: #"["VERSION",1]"#, priority: nil),
    Row(json: "[]", priority: nil),
    Row(json: "not json", priority: nil),
    Row(json: "", priority: nil),
  ]

  @Test(arguments: rows, Kind.allCases)
  func readsASteeringManifestOrNothing(_ row: Row, _ kind: Kind) {
    let manifest = SteeringSchedule.manifest(of: Data(row.text(for: kind).utf8), names: kind.names)
    #expect(manifest?.priority == row.priority)
    #expect(manifest?.ttl == row.ttl)
    #expect(manifest?.reloadURI == row.reload)
  }

  @Test(arguments: Kind.allCases)
  func keepsAtMostSixtyFourLocations(_ kind: Kind) {
    let names = (0..<500).map { "\"l\($0)\"" }.joined(separator: ",")
    let json = #"{"VERSION":1,"\#(kind.names.priorityKey)":["",\#(names)]}"#
    let manifest = SteeringSchedule.manifest(of: Data(json.utf8), names: kind.names)
    #expect(manifest?.priority.count == SteeringSchedule.maximumLocations)
    #expect(manifest?.priority.first == "l0")
  }

  @Test(arguments: Kind.allCases)
  func eachRequestCarriesTheLocationInUseAndTheThroughput(_ kind: Kind) {
    let (pathway, throughput) = (kind.names.pathwayParameter, kind.names.throughputParameter)
    let schedule = SteeringSchedule(serverURL: Self.server, names: kind.names)
    #expect(
      schedule.request(pathway: "alpha", throughput: 800_000).absoluteString
        == "https://steer.example/app/steer.json?session=1&\(pathway)=alpha"
        + "&\(throughput)=800000")
    #expect(
      schedule.request(pathway: "alpha", throughput: nil).absoluteString
        == "https://steer.example/app/steer.json?session=1&\(pathway)=alpha",
      "no throughput before one is measured")
    #expect(
      schedule.request(pathway: nil, throughput: nil).absoluteString == Self.server.absoluteString)
    let asked = URL(string: "https://steer.example/s?\(pathway)=old&\(throughput)=1")!
    #expect(
      SteeringSchedule(serverURL: asked, names: kind.names).request(pathway: "new", throughput: nil)
        .absoluteString == "https://steer.example/s?\(pathway)=new")
  }

  @Test(arguments: Kind.allCases)
  func aLoadedManifestSetsTheNextRequestItsTTLLaterAtItsReloadURI(_ kind: Kind) {
    var schedule = SteeringSchedule(serverURL: Self.server, names: kind.names)
    #expect(schedule.due == nil, "nothing planned before a first request")
    let manifest = SteeringSchedule.Manifest(
      ttl: .seconds(10), reloadURI: "../next.json", priority: ["b", "a"])
    let changed = schedule.didLoad(manifest, at: start)
    #expect(changed)
    #expect(schedule.due == start + .seconds(10))
    #expect(schedule.url.absoluteString == "https://steer.example/next.json")
    #expect(schedule.priority == ["b", "a"])
    let again = schedule.didLoad(manifest, at: start + .seconds(10))
    #expect(!again, "the same priority")
    var short = manifest
    short.ttl = .milliseconds(10)
    schedule.didLoad(short, at: start)
    #expect(schedule.due == start + SteeringSchedule.shortestTTL, "a tiny TTL is no loop")
  }

  @Test(arguments: Kind.allCases)
  func aManifestWithoutTTLIsAskedAgainAfterFiveMinutesAtTheSameURL(_ kind: Kind) {
    var schedule = SteeringSchedule(serverURL: Self.server, names: kind.names)
    schedule.didLoad(.init(ttl: nil, reloadURI: nil, priority: ["a"]), at: start)
    #expect(schedule.due == start + .seconds(300))
    #expect(schedule.url == Self.server)
  }

  /// A `RELOAD-URI` is resolved against the URL it was loaded from; one that is not
  /// http(s) is not followed (`HLSURI.resolve`'s rule, for both protocols).
  @Test(arguments: Kind.allCases)
  func aRelativeReloadURIIsResolvedAndOnlyHTTPIsFollowed(_ kind: Kind) {
    var schedule = SteeringSchedule(
      serverURL: URL(string: "http://steer.test/a/steering.json")!, names: kind.names)
    for reload in ["b/1.json", "2.json", "file:///etc/passwd", "data:,x", "//"] {
      schedule.didLoad(.init(ttl: .seconds(5), reloadURI: reload, priority: ["a"]), at: start)
    }
    #expect(schedule.url.absoluteString == "http://steer.test/a/b/2.json")
  }

  @Test(arguments: Kind.allCases)
  func aFailureKeepsThePriorityAndA410EndsTheRequests(_ kind: Kind) {
    var schedule = SteeringSchedule(serverURL: Self.server, names: kind.names)
    schedule.didLoad(.init(ttl: .seconds(20), reloadURI: nil, priority: ["b"]), at: start)
    schedule.didFail(
      Transfer.Error(.status(503, retryAfter: nil), url: Self.server, destination: ""),
      at: start)
    #expect(schedule.due == start + .seconds(20), "asked again one TTL later")
    schedule.didFail(
      Transfer.Error(.status(429, retryAfter: .seconds(90)), url: Self.server, destination: ""),
      at: start)
    #expect(schedule.due == start + .seconds(90), "Retry-After is honoured")
    #expect(schedule.priority == ["b"])
    let changed = schedule.didLoad(nil, at: start)
    #expect(!changed, "a body that is not a manifest")
    #expect(schedule.due == start + .seconds(20) && schedule.priority == ["b"])
    schedule.didFail(
      Transfer.Error(.status(410, retryAfter: nil), url: Self.server, destination: ""), at: start)
    #expect(schedule.due == nil, "410: never asked again")
    #expect(schedule.priority == ["b"])
  }

  /// The log hears the first failure of a run (URL redacted, reason, what stays, when it is
  /// asked next) and the first good answer after it; the failures between, and good answers
  /// in a row, are not logged.
  @Test(arguments: Kind.allCases)
  func theLogHearsTheFirstFailureOfARunAndTheRecovery(_ kind: Kind) {
    let url = URL(string: "https://steer.example/s.json?token=secret")!
    var schedule = SteeringSchedule(serverURL: url, names: kind.names)
    schedule.didFail(
      Transfer.Error(.status(404, retryAfter: nil), url: url, destination: ""), at: start)
    let first = schedule.noteAnswer(from: url, failure: "HTTP 404", at: start)
    #expect(
      first == "content steering: the manifest at https://steer.example/s.json?… did not load"
        + " (HTTP 404); the stream's own order of sources stays; asked again in 300 s")
    schedule.didLoad(nil, at: start)
    #expect(schedule.noteAnswer(from: url, failure: "no manifest", at: start) == nil)
    schedule.didLoad(.init(ttl: .seconds(60), reloadURI: nil, priority: ["b", "a"]), at: start)
    #expect(
      schedule.noteAnswer(from: url, failure: nil, at: start)
        == "content steering: the manifest at https://steer.example/s.json?… loads again;"
        + " its priority (b, a) applies")
    schedule.didLoad(.init(ttl: .seconds(60), reloadURI: nil, priority: ["a"]), at: start)
    #expect(schedule.noteAnswer(from: url, failure: nil, at: start) == nil)
    schedule.didFail(
      Transfer.Error(.status(410, retryAfter: nil), url: url, destination: ""), at: start)
    #expect(
      schedule.noteAnswer(from: url, failure: "HTTP 410", at: start)
        == "content steering: the manifest at https://steer.example/s.json?… did not load"
        + " (HTTP 410); the last good priority (a) stays; no more steering requests are made")
  }

  @Test func aNewPriorityPutsItsLocationsFirstAndKeepsTheOthersAfter() {
    let locations: [String?] = ["alpha", nil, "beta", "gamma"]
    #expect(SteeringReloader.order(of: locations, by: ["gamma", "beta"]) == [3, 2, 0, 1])
    #expect(SteeringReloader.order(of: locations, by: ["zeta"]) == [0, 1, 2, 3])
    #expect(SteeringReloader.order(of: locations, by: []) == [0, 1, 2, 3])
    #expect(SteeringReloader.order(of: ["A", "B", "C"], by: ["C", "A"]) == [2, 0, 1])
  }
}
