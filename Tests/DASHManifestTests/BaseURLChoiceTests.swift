import DASHManifest
import Foundation
import TestTiming
import Testing

/// Issue 43, item 3: several `BaseURL`s are the same content at several places; their
/// `dvb:priority` says which to try first, at every level of the manifest.
@Suite(.timed) struct BaseURLChoiceTests {
  let origin = URL(string: "https://origin.example.com/path/manifest.mpd")!
  let path = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)

  func manifest(
    mpd: String = "", period: String = "", set: String = "", representation: String = ""
  )
    -> String
  {
    """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:dvb="urn:dvb:dash:dash-extensions:2014-1"
      mediaPresentationDuration="PT4S">\(mpd)<Period>\(period)<AdaptationSet>\(set)
    <Representation id="v" bandwidth="1">\(representation)
    <SegmentTemplate media="s$Number$.m4s" initialization="init.mp4" duration="2"/>
    </Representation></AdaptationSet></Period></MPD>
    """
  }

  @Test func readsPriorityWeightAndServiceLocationAtEveryLevel() throws {
    let element = #"<BaseURL dvb:priority="2" dvb:weight="10" serviceLocation="b">x/</BaseURL>"#
    let mpd = try MPDParser.parse(
      manifest(mpd: element, period: element, set: element, representation: element))
    let expected = [BaseURL("x/", serviceLocation: "b", priority: 2, weight: 10)]
    #expect(mpd.baseURLElements == expected)
    #expect(mpd.periods[0].baseURLElements == expected)
    #expect(mpd.periods[0].adaptationSets[0].baseURLElements == expected)
    #expect(mpd.periods[0].adaptationSets[0].representations[0].baseURLElements == expected)
    #expect(mpd.baseURLs == ["x/"])
  }

  @Test func aPriorityThatIsNotAWholeNumberIsIgnoredNotRefused() throws {
    let mpd = try MPDParser.parse(
      manifest(mpd: #"<BaseURL dvb:priority="high" dvb:weight="-3">a/</BaseURL>"#))
    #expect(mpd.baseURLElements == [BaseURL("a/")])
  }

  @Test func lowerPriorityIsTriedFirstAndEqualOnesKeepDocumentOrder() throws {
    let mpd = try MPDParser.parse(
      manifest(
        mpd: """
          <BaseURL dvb:priority="3">https://c.example/</BaseURL>
          <BaseURL dvb:priority="1">https://a.example/</BaseURL>
          <BaseURL>https://b.example/</BaseURL>
          """))
    let resolver = SegmentResolver()
    let bases = try resolver.baseURLChoices(for: path, in: mpd).map {
      try resolver.baseURL(for: path, in: mpd, manifestURL: origin, choice: $0).absoluteString
    }
    #expect(bases == ["https://a.example/", "https://b.example/", "https://c.example/"])
  }

  @Test func eachChoiceListsTheSameSegmentsUnderItsBase() throws {
    let mpd = try MPDParser.parse(
      manifest(
        mpd: "<BaseURL>https://cdn1.example/v/</BaseURL><BaseURL>https://cdn2.example/w/</BaseURL>",
        set: "<BaseURL>video/</BaseURL>"))
    let resolver = SegmentResolver()
    let choices = resolver.baseURLChoices(for: path, in: mpd)
    #expect(choices.count == 2)
    let listings = try choices.map {
      try resolver.segments(for: path, in: mpd, manifestURL: origin, choice: $0)
    }
    #expect(
      listings[0].initialization?.url.absoluteString == "https://cdn1.example/v/video/init.mp4")
    #expect(
      listings[1].initialization?.url.absoluteString == "https://cdn2.example/w/video/init.mp4")
    #expect(listings[1].segments.map(\.url.lastPathComponent) == ["s1.m4s", "s2.m4s"])
    #expect(listings[0].segments.count == listings[1].segments.count)
  }

  @Test func aSingleBaseURLGivesOneChoiceAndNoneGivesTheManifestsFolder() throws {
    let resolver = SegmentResolver()
    let plain = try MPDParser.parse(manifest())
    #expect(resolver.baseURLChoices(for: path, in: plain) == [.first])
    #expect(
      try resolver.baseURL(for: path, in: plain, manifestURL: origin, choice: .first)
        == origin)
  }

  /// A hostile manifest with many `BaseURL`s at each level would multiply them: the choices
  /// stop at the bound, built one at a time.
  @Test func manyBaseURLsAtEveryLevelGiveAtMostTheBound() throws {
    let many = (0..<200).map { "<BaseURL>u\($0)/</BaseURL>" }.joined()
    let mpd = try MPDParser.parse(
      manifest(mpd: many, period: many, set: many, representation: many))
    let choices = SegmentResolver().baseURLChoices(for: path, in: mpd)
    #expect(choices.count == SegmentResolver.maximumBaseURLChoices)
    #expect(Set(choices).count == choices.count)
  }

  @Test func noSuchRepresentationHasNoChoices() throws {
    let mpd = try MPDParser.parse(manifest())
    let missing = RepresentationPath(period: 3, adaptationSet: 0, representation: 0)
    #expect(SegmentResolver().baseURLChoices(for: missing, in: mpd).isEmpty)
  }
}

extension BaseURLChoiceTests {
  @Test func rankedBaseURLsAreWrittenBackAndParseTheSame() throws {
    let element = #"<BaseURL dvb:priority="2" dvb:weight="5" serviceLocation="b">x/</BaseURL>"#
    let mpd = try MPDParser.parse(manifest(mpd: element, representation: "<BaseURL>r/</BaseURL>"))
    let text = MPDWriter.write(mpd)
    #expect(text.contains(#"xmlns:dvb="urn:dvb:dash:dash-extensions:2014-1""#))
    #expect(try MPDParser.parse(text) == mpd)
    let plain = MPDWriter.write(try MPDParser.parse(manifest()))
    #expect(!plain.contains("xmlns:dvb"), "declared only where used")
  }
}
