import DASHManifest
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: DASH's `ContentSteering@proxyServerURL` (DASH-IF CTS 001). A client
/// with a proxy steering server asks the proxy, the steering server's URL percent-encoded as
/// its `url` parameter, beside `_DASH_pathway` and `_DASH_throughput`. The URLs are built
/// without I/O, one row per case; a proxy that cannot be followed is refused with a reason.
@Suite(.timed) struct DASHSteeringProxyTests {
  static let manifest = URL(string: "https://cdn.example/live/show/manifest.mpd?token=t1")!

  /// One request: the proxy as the MPD writes it, the steering server's URL, the
  /// parameters, and the URL asked.
  struct Row: Sendable, CustomTestStringConvertible {
    let proxy: String
    let server: String
    var pathway: String? = "alpha"
    var throughput: Int? = nil
    let expected: String
    var testDescription: String { "\(proxy) for \(server)" }
  }

  static let rows: [Row] = [
    // An absolute proxy without a query.
    Row(
      proxy: "https://proxy.example/steer", server: "https://steer.example/s.json",
      expected: "https://proxy.example/steer?url=https%3A%2F%2Fsteer.example%2Fs.json"
        + "&_DASH_pathway=alpha"),
    // A relative proxy resolves against the MPD's URL (its query dropped), with throughput.
    Row(
      proxy: "../proxy", server: "https://steer.example/s.json", throughput: 2_500_000,
      expected: "https://cdn.example/live/proxy?url=https%3A%2F%2Fsteer.example%2Fs.json"
        + "&_DASH_pathway=alpha&_DASH_throughput=2500000"),
    Row(
      proxy: "/p", server: "https://steer.example/s.json", pathway: nil,
      expected: "https://cdn.example/p?url=https%3A%2F%2Fsteer.example%2Fs.json"),
    // The proxy's own query stays, in its order; its fragment goes.
    Row(
      proxy: "https://proxy.example/steer?client=a%20b&v=2#frag",
      server: "https://steer.example/s.json",
      expected: "https://proxy.example/steer?client=a%20b&v=2"
        + "&url=https%3A%2F%2Fsteer.example%2Fs.json&_DASH_pathway=alpha"),
    // A `url`, `_DASH_pathway` or `_DASH_throughput` the proxy had is replaced.
    Row(
      proxy: "https://proxy.example/steer?url=old&_DASH_pathway=x&_DASH_throughput=1&keep=1",
      server: "https://steer.example/s.json", throughput: 8,
      expected: "https://proxy.example/steer?keep=1&url=https%3A%2F%2Fsteer.example%2Fs.json"
        + "&_DASH_pathway=alpha&_DASH_throughput=8"),
    // The server's own query (`?`, `&`, `=`) and escapes stay inside the `url` value.
    Row(
      proxy: "https://proxy.example/steer",
      server: "https://steer.example/a%20b/s.json?session=1&cdn=x",
      expected: "https://proxy.example/steer?url=https%3A%2F%2Fsteer.example%2Fa%2520b"
        + "%2Fs.json%3Fsession%3D1%26cdn%3Dx&_DASH_pathway=alpha"),
    // A pathway with characters of a query is escaped.
    Row(
      proxy: "https://proxy.example/steer", server: "https://steer.example/s.json",
      pathway: "a&b=c d",
      expected: "https://proxy.example/steer?url=https%3A%2F%2Fsteer.example%2Fs.json"
        + "&_DASH_pathway=a%26b%3Dc%20d"),
  ]

  @Test(arguments: rows)
  func theSteeringRequestGoesToTheProxyWithTheServersURLAsItsURLParameter(_ row: Row) throws {
    let steering = MPD.ContentSteering(serverURL: row.server, proxyServerURL: row.proxy)
    let proxy = try #require(try DASHSteering.proxy(of: steering, manifestURL: Self.manifest).get())
    var schedule = SteeringSchedule(serverURL: URL(string: row.server)!, names: .dash)
    schedule.proxy = proxy
    let url = schedule.request(pathway: row.pathway, throughput: row.throughput)
    #expect(url.absoluteString == row.expected)
    // What a proxy reads back out of it is the server's URL, whole.
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    #expect(items.first { $0.name == "url" }?.value == row.server)
    #expect(items.first { $0.name == "_DASH_pathway" }?.value == row.pathway)
  }

  @Test func withoutAProxyTheSteeringServerIsAskedItself() throws {
    let steering = MPD.ContentSteering(serverURL: "https://steer.example/s.json")
    #expect(try DASHSteering.proxy(of: steering, manifestURL: Self.manifest).get() == nil)
    let schedule = SteeringSchedule(
      serverURL: URL(string: "https://steer.example/s.json")!, names: .dash)
    #expect(
      schedule.request(pathway: "beta", throughput: nil).absoluteString
        == "https://steer.example/s.json?_DASH_pathway=beta")
  }

  @Test(arguments: [
    "ftp://proxy.example/steer", "file:///etc/passwd", "data:text/plain,x", "https://",
    "javascript:alert(1)", "https://proxy.example/" + String(repeating: "a", count: 8200),
  ])
  func aProxyThatIsNotAnHTTPURLIsRefusedWithAReason(_ written: String) {
    let steering = MPD.ContentSteering(
      serverURL: "https://steer.example/s.json", proxyServerURL: written)
    guard case .failure(let refusal) = DASHSteering.proxy(of: steering, manifestURL: Self.manifest)
    else {
      Issue.record("\(written.prefix(40)) was followed")
      return
    }
    #expect(refusal.reason.hasPrefix("the MPD's steering proxy \""), "\(refusal)")
    #expect(
      refusal.reason.hasSuffix("is not an http or https URL")
        || refusal.reason.hasSuffix("is longer than 8192 bytes"), "\(refusal)")
  }

  /// A reload (`RELOAD-URI`) changes the URL the proxy is asked for, not the proxy.
  @Test func aReloadURIIsCarriedToTheSameProxy() {
    var schedule = SteeringSchedule(
      serverURL: URL(string: "https://steer.example/a/s.json")!, names: .dash)
    schedule.proxy = URL(string: "https://proxy.example/p")!
    schedule.didLoad(
      SteeringSchedule.Manifest(ttl: .seconds(5), reloadURI: "next.json?n=2", priority: ["b"]),
      at: ContinuousClock.now)
    #expect(
      schedule.request(pathway: "b", throughput: nil).absoluteString
        == "https://proxy.example/p?url=https%3A%2F%2Fsteer.example%2Fa%2Fnext.json%3Fn%3D2"
        + "&_DASH_pathway=b")
  }
}
