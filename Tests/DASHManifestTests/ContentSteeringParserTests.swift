import DASHManifest
import Foundation
import TestTiming
import Testing

/// Issue 43, item 3: an MPD's `ContentSteering` element (DASH-IF CTS 001) and
/// `BaseURL@serviceLocation`. A malformed element is ignored with a reason, never a failure
/// of the whole manifest; the writer keeps it; the offline copy drops it with the origin's
/// `BaseURL`s.
@Suite(.timed) struct ContentSteeringParserTests {
  let path = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)
  let origin = URL(string: "https://origin.example.com/path/manifest.mpd")!

  func manifest(_ steering: String, baseURLs: String = "") -> String {
    """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:dvb="urn:dvb:dash:dash-extensions:2014-1"
      mediaPresentationDuration="PT4S">\(steering)\(baseURLs)<Period><AdaptationSet>
    <Representation id="v" bandwidth="1">
    <SegmentTemplate media="s$Number$.m4s" initialization="init.mp4" duration="2"/>
    </Representation></AdaptationSet></Period></MPD>
    """
  }

  struct Row: Sendable, CustomTestStringConvertible {
    let element: String
    let steering: MPD.ContentSteering?
    /// Words the reason it was ignored contains; nil when nothing was ignored.
    let ignored: [String]?
    var testDescription: String { element }
  }

  static let rows: [Row] = [
    Row(element: "", steering: nil, ignored: nil),
    Row(
      element: "<ContentSteering>https://steer.example/s.json</ContentSteering>",
      steering: .init(serverURL: "https://steer.example/s.json"), ignored: nil),
    Row(
      element: """
        <ContentSteering defaultServiceLocation=" alpha beta " queryBeforeStart="true"
          proxyServerURL="https://proxy.example/">  /steer?x=1&amp;y=2  </ContentSteering>
        """,
      steering: .init(
        serverURL: "/steer?x=1&y=2", defaultServiceLocation: "alpha beta",
        queryBeforeStart: true, proxyServerURL: "https://proxy.example/"),
      ignored: nil),
    Row(
      element: #"<ContentSteering queryBeforeStart=" 0 ">s.json</ContentSteering>"#,
      steering: .init(serverURL: "s.json"), ignored: nil),
    Row(
      element: #"<ContentSteering queryBeforeStart="1">s.json</ContentSteering>"#,
      steering: .init(serverURL: "s.json", queryBeforeStart: true), ignored: nil),
    Row(
      element: #"<ContentSteering defaultServiceLocation="a">   </ContentSteering>"#,
      steering: nil, ignored: ["ContentSteering[1]", "no steering server URL"]),
    Row(element: "<ContentSteering/>", steering: nil, ignored: ["no steering server URL"]),
    Row(
      element: #"<ContentSteering queryBeforeStart="yes">s.json</ContentSteering>"#,
      steering: nil, ignored: ["queryBeforeStart 'yes'", "not true or false"]),
    Row(
      element: "<ContentSteering>\(String(repeating: "a", count: 9000))</ContentSteering>",
      steering: nil, ignored: ["longer than 8192"]),
    Row(
      element: "<ContentSteering>a.json</ContentSteering><ContentSteering>b.json</ContentSteering>",
      steering: .init(serverURL: "a.json"), ignored: ["1 more ContentSteering element"]),
    Row(
      element: "<ContentSteering/><ContentSteering>b.json</ContentSteering>",
      steering: nil, ignored: ["no steering server URL", "1 more ContentSteering element"]),
    Row(
      element: "<ContentSteering>s.json<Extra>x</Extra></ContentSteering>",
      steering: .init(serverURL: "s.json"), ignored: nil),
  ]

  @Test(arguments: rows)
  func readsTheElementOrIgnoresItWithAReason(_ row: Row) throws {
    var ignored: [String] = []
    let mpd = try MPDParser.parse(Data(manifest(row.element).utf8), ignored: &ignored)
    #expect(mpd.contentSteering == row.steering)
    #expect(try MPDParser.parse(manifest(row.element)) == mpd)
    if let words = row.ignored {
      let reason = ignored.joined(separator: "; ")
      for word in words { #expect(reason.contains(word), "\(reason)") }
      // What was ignored is not in the model: the manifest written back reads the same.
      #expect(try MPDParser.parse(MPDWriter.write(mpd)) == mpd)
    } else {
      #expect(ignored.isEmpty, "\(ignored)")
    }
  }

  @Test func theDefaultServiceLocationsAreItsNamesInOrderWithoutRepeats() {
    let steering = MPD.ContentSteering(serverURL: "s", defaultServiceLocation: "b a\tb  c")
    #expect(steering.defaultServiceLocations == ["b", "a", "c"])
    #expect(MPD.ContentSteering(serverURL: "s").defaultServiceLocations == [])
  }

  @Test func theWriterKeepsTheElementSoTheManifestReadsBackTheSame() throws {
    let mpd = try MPDParser.parse(
      manifest(
        #"<ContentSteering defaultServiceLocation="a" queryBeforeStart="true" "#
          + #"proxyServerURL="p">https://s.example/x?a=1&amp;b=2</ContentSteering>"#,
        baseURLs: #"<BaseURL serviceLocation="a">https://a.example/</BaseURL>"#))
    let text = MPDWriter.write(mpd)
    #expect(text.contains("<ContentSteering"), "\(text)")
    #expect(try MPDParser.parse(text) == mpd)
  }

  @Test func theOfflineCopyHasNoSteeringNorTheOriginsLocations() throws {
    let mpd = try MPDParser.parse(
      manifest(
        #"<ContentSteering queryBeforeStart="true">s.json</ContentSteering>"#,
        baseURLs: #"<BaseURL serviceLocation="a">https://a.example/</BaseURL>"#))
    let offline = try OfflineManifest.make(
      from: mpd,
      files: [
        path: OfflineRepresentation(
          initialization: "init.mp4", segments: [.init(name: "s1.m4s", duration: 2)])
      ])
    #expect(offline.contentSteering == nil)
    let text = MPDWriter.write(offline)
    #expect(!text.contains("ContentSteering") && !text.contains("serviceLocation"), "\(text)")
  }

  /// `SERVICE-LOCATION-PRIORITY` wins over `dvb:priority`; locations it does not name stay,
  /// last, in their `dvb:priority` order; a `BaseURL` without a location is one of those.
  @Test func theSteeredManifestTriesTheLocationsInTheSteeringOrder() throws {
    let mpd = try MPDParser.parse(
      manifest(
        "",
        baseURLs: """
          <BaseURL serviceLocation="a" dvb:priority="1">https://a.example/</BaseURL>
          <BaseURL dvb:priority="2">https://n.example/</BaseURL>
          <BaseURL serviceLocation="b" dvb:priority="3">https://b.example/</BaseURL>
          <BaseURL serviceLocation="c" dvb:priority="4">https://c.example/</BaseURL>
          """))
    let resolver = SegmentResolver()
    func order(_ steered: MPD) throws -> [String] {
      try resolver.baseURLChoices(for: path, in: steered).map {
        try resolver.baseURL(for: path, in: steered, manifestURL: origin, choice: $0).host ?? ""
      }
    }
    #expect(try order(mpd) == ["a.example", "n.example", "b.example", "c.example"])
    #expect(
      try order(mpd.steered(by: ["c", "b"])) == [
        "c.example", "b.example", "a.example", "n.example",
      ])
    #expect(
      try order(mpd.steered(by: ["z", "b"])) == [
        "b.example", "a.example", "n.example", "c.example",
      ])
    #expect(mpd.steered(by: []) == mpd)
    let steered = mpd.steered(by: ["c"])
    let locations = resolver.baseURLChoices(for: path, in: steered).map {
      resolver.serviceLocation(of: $0, for: path, in: steered)
    }
    #expect(locations == ["c", "a", nil, "b"])
  }

  /// The innermost `BaseURL` that names a location names the choice's.
  @Test func aChoicesServiceLocationIsTheInnermostNamed() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT4S">
      <BaseURL serviceLocation="outer">https://o.example/</BaseURL>
      <Period><AdaptationSet><BaseURL serviceLocation="inner">v/</BaseURL>
      <BaseURL>w/</BaseURL>
      <Representation id="v" bandwidth="1">
      <SegmentTemplate media="s$Number$.m4s" duration="2"/>
      </Representation></AdaptationSet></Period></MPD>
      """)
    let resolver = SegmentResolver()
    let choices = resolver.baseURLChoices(for: path, in: mpd)
    #expect(
      choices.map { resolver.serviceLocation(of: $0, for: path, in: mpd) } == ["inner", "outer"])
    let elsewhere = RepresentationPath(period: 0, adaptationSet: 0, representation: 5)
    #expect(resolver.serviceLocation(of: .first, for: elsewhere, in: mpd) == nil)
  }
}
