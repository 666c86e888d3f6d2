import Foundation
import OfflineHTTP
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: the DASH steering manifest (DASH-IF CTS 001) read and its requests
/// planned without I/O: which JSON is a manifest, what each request carries, when the next
/// one is due, and which source a new priority puts first.
@Suite(.timed) struct SteeringScheduleTests {
  let server = URL(string: "https://steer.example/app/steer.json?session=1")!
  let start = ContinuousClock.now

  struct Row: Sendable, CustomTestStringConvertible {
    let json: String
    let priority: [String]?
    var ttl: Duration? = nil
    var reload: String? = nil
    var testDescription: String { json }
  }

  static let rows: [Row] = [
    Row(
      json:
        #"{"VERSION":1,"TTL":10,"RELOAD-URI":"next.json","SERVICE-LOCATION-PRIORITY":["b","a"]}"#,
      priority: ["b", "a"], ttl: .seconds(10), reload: "next.json"),
    Row(
      json: #"{"VERSION":1,"SERVICE-LOCATION-PRIORITY":["a","","a",3,"b"]}"#, priority: ["a", "b"]),
    Row(
      json: #"{"VERSION":1,"TTL":-5,"RELOAD-URI":7,"SERVICE-LOCATION-PRIORITY":["a"]}"#,
      priority: ["a"]),
    Row(
      json: #"{"VERSION":1,"TTL":0.5,"SERVICE-LOCATION-PRIORITY":["a"]}"#, priority: ["a"],
      ttl: .milliseconds(500)),
    Row(json: #"{"VERSION":2,"SERVICE-LOCATION-PRIORITY":["a"]}"#, priority: nil),
    Row(json: #"{"SERVICE-LOCATION-PRIORITY":["a"]}"#, priority: nil),
    Row(json: #"{"VERSION":1,"PATHWAY-PRIORITY":["a"]}"#, priority: nil),
    Row(json: #"{"VERSION":1,"SERVICE-LOCATION-PRIORITY":[]}"#, priority: nil),
    Row(json: #"{"VERSION":1,"SERVICE-LOCATION-PRIORITY":"a"}"#, priority: nil),
    Row(json: #"["VERSION",1]"#, priority: nil),
    Row(json: "not json", priority: nil),
    Row(json: "", priority: nil),
  ]

  @Test(arguments: rows)
  func readsASteeringManifestOrNothing(_ row: Row) {
    let manifest = SteeringSchedule.manifest(of: Data(row.json.utf8), names: .dash)
    #expect(manifest?.priority == row.priority)
    #expect(manifest?.ttl == row.ttl)
    #expect(manifest?.reloadURI == row.reload)
  }

  @Test func keepsAtMostSixtyFourLocations() {
    let names = (0..<100).map { "\"l\($0)\"" }.joined(separator: ",")
    let json = #"{"VERSION":1,"SERVICE-LOCATION-PRIORITY":[\#(names)]}"#
    let manifest = SteeringSchedule.manifest(of: Data(json.utf8), names: .dash)
    #expect(manifest?.priority.count == SteeringSchedule.maximumLocations)
  }

  @Test func eachRequestCarriesTheLocationInUseAndTheThroughput() {
    let schedule = SteeringSchedule(serverURL: server, names: .dash)
    #expect(
      schedule.request(pathway: "alpha", throughput: 800_000).absoluteString
        == "https://steer.example/app/steer.json?session=1&_DASH_pathway=alpha"
        + "&_DASH_throughput=800000")
    #expect(
      schedule.request(pathway: nil, throughput: nil).absoluteString == server.absoluteString)
    let asked = URL(string: "https://steer.example/s?_DASH_pathway=old&_DASH_throughput=1")!
    #expect(
      SteeringSchedule(serverURL: asked, names: .dash).request(pathway: "new", throughput: nil)
        .absoluteString == "https://steer.example/s?_DASH_pathway=new")
  }

  @Test func aLoadedManifestSetsTheNextRequestItsTTLLaterAtItsReloadURI() {
    var schedule = SteeringSchedule(serverURL: server, names: .dash)
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
    #expect(schedule.due == start + SteeringSchedule.shortestTTL)
  }

  @Test func aFailureKeepsThePriorityAndA410EndsTheRequests() {
    var schedule = SteeringSchedule(serverURL: server, names: .dash)
    schedule.didLoad(.init(ttl: .seconds(20), reloadURI: nil, priority: ["b"]), at: start)
    schedule.didFail(
      Transfer.Error(.status(503, retryAfter: .seconds(5)), url: server, destination: ""),
      at: start)
    #expect(schedule.due == start + .seconds(5))
    #expect(schedule.priority == ["b"])
    schedule.didLoad(nil, at: start)
    #expect(schedule.due == start + .seconds(20) && schedule.priority == ["b"])
    schedule.didFail(
      Transfer.Error(.status(410, retryAfter: nil), url: server, destination: ""), at: start)
    #expect(schedule.due == nil)
  }

  @Test func aNewPriorityPutsItsLocationsFirstAndKeepsTheOthersAfter() {
    let locations: [String?] = ["alpha", nil, "beta", "gamma"]
    #expect(SteeringReloader.order(of: locations, by: ["gamma", "beta"]) == [3, 2, 0, 1])
    #expect(SteeringReloader.order(of: locations, by: ["zeta"]) == [0, 1, 2, 3])
    #expect(SteeringReloader.order(of: locations, by: []) == [0, 1, 2, 3])
  }
}
