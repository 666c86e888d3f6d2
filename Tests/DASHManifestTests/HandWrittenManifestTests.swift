import DASHManifest
import Foundation
import TestTiming
import Testing

/// Manifests written by hand for what ffmpeg's muxer does not write: text tracks, several
/// Periods, BaseURLs at every level, inheritance, protection and namespaces.
@Suite(.timed) struct HandWrittenManifestTests {
  let origin = URL(string: "https://origin.example.com/show/ep1/manifest.mpd?token=s3cret")!
  let resolver = SegmentResolver()

  func listing(_ mpd: MPD, _ p: Int, _ a: Int, _ r: Int = 0) throws -> RepresentationSegments {
    try resolver.segments(
      for: RepresentationPath(period: p, adaptationSet: a, representation: r), in: mpd,
      manifestURL: origin)
  }

  @Test func aWebVTTAdaptationSetIsOneTextFileWithItsLanguageAndRole() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT6S">
        <Period>
          <AdaptationSet contentType="text" mimeType="text/vtt" lang="de">
            <Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle"/>
            <Representation id="sub-de" bandwidth="256"><BaseURL>subs/de.vtt</BaseURL></Representation>
          </AdaptationSet>
        </Period>
      </MPD>
      """)
    let set = mpd.periods[0].adaptationSets[0]
    #expect(set.contentType == "text" && set.lang == "de")
    #expect(set.common.mimeType == "text/vtt")
    #expect(set.roles == [Descriptor(schemeIdUri: "urn:mpeg:dash:role:2011", value: "subtitle")])
    let segments = try listing(mpd, 0, 0)
    #expect(segments.initialization == nil)
    #expect(
      segments.segments.map(\.url.absoluteString) == [
        "https://origin.example.com/show/ep1/subs/de.vtt"
      ])
  }

  @Test func twoPeriodsKeepTheirOrderStartsAndSegmentCounts() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT10S">
        <Period id="ad" duration="PT4S">
          <BaseURL>ad/</BaseURL>
          <AdaptationSet mimeType="video/mp4">
            <SegmentTemplate media="$RepresentationID$-$Number$.m4s" initialization="$RepresentationID$-init.mp4" duration="2" timescale="1"/>
            <Representation id="v" bandwidth="1000"/>
          </AdaptationSet>
        </Period>
        <Period id="main">
          <BaseURL>main/</BaseURL>
          <AdaptationSet mimeType="video/mp4">
            <SegmentTemplate media="$RepresentationID$-$Number$.m4s" initialization="$RepresentationID$-init.mp4" duration="2" timescale="1"/>
            <Representation id="v" bandwidth="1000"/>
          </AdaptationSet>
        </Period>
      </MPD>
      """)
    #expect(mpd.periods.map(\.id) == ["ad", "main"])
    #expect(mpd.periodStart(at: 0) == 0 && mpd.periodStart(at: 1) == 4)
    #expect(mpd.periodDuration(at: 0) == 4 && mpd.periodDuration(at: 1) == 6)
    let first = try listing(mpd, 0, 0)
    let second = try listing(mpd, 1, 0)
    #expect(first.segments.count == 2 && second.segments.count == 3)
    #expect(
      first.segments.last?.url.absoluteString == "https://origin.example.com/show/ep1/ad/v-2.m4s")
    #expect(
      second.initialization?.url.absoluteString
        == "https://origin.example.com/show/ep1/main/v-init.mp4")
  }

  @Test func baseURLsResolveAtEveryLevelAgainstTheManifestURL() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT4S">
        <BaseURL>https://cdn.example.net/root/</BaseURL>
        <BaseURL>https://backup.example.net/root/</BaseURL>
        <Period>
          <BaseURL>period1/</BaseURL>
          <AdaptationSet>
            <BaseURL>../shared/audio/</BaseURL>
            <Representation id="a" bandwidth="64000">
              <BaseURL>en/</BaseURL>
              <SegmentList duration="2"><SegmentURL media="s1.m4s"/><SegmentURL media="/abs/s2.m4s"/></SegmentList>
            </Representation>
          </AdaptationSet>
          <AdaptationSet>
            <Representation id="b" bandwidth="1"><BaseURL>//other.example.org/b.mp4</BaseURL></Representation>
          </AdaptationSet>
        </Period>
        <Period><AdaptationSet><Representation id="c" bandwidth="1"/></AdaptationSet></Period>
      </MPD>
      """)
    #expect(mpd.baseURLs.count == 2)
    let a = try listing(mpd, 0, 0)
    #expect(
      a.segments.map(\.url.absoluteString) == [
        "https://cdn.example.net/root/shared/audio/en/s1.m4s", "https://cdn.example.net/abs/s2.m4s",
      ])
    #expect(
      try listing(mpd, 0, 1).segments.map(\.url.absoluteString) == [
        "https://other.example.org/b.mp4"
      ])
    // With no BaseURL below the MPD's, the Representation is the MPD's BaseURL itself.
    #expect(
      try listing(mpd, 1, 0).segments.map(\.url.absoluteString) == ["https://cdn.example.net/root/"]
    )
  }

  @Test func aTemplateInheritsFromThePeriodAndTheAdaptationSet() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT8S">
        <Period>
          <SegmentTemplate timescale="1000" startNumber="10" media="$RepresentationID$/$Bandwidth$/$Number%03d$.m4s"/>
          <AdaptationSet>
            <SegmentTemplate duration="4000" initialization="$RepresentationID$/init-$Bandwidth$.mp4"/>
            <Representation id="hi" bandwidth="5000000"/>
            <Representation id="lo" bandwidth="800000">
              <SegmentTemplate startNumber="1" media="lo/$$$Number$$$.m4s"/>
            </Representation>
          </AdaptationSet>
        </Period>
      </MPD>
      """)
    let hi = try listing(mpd, 0, 0, 0)
    #expect(hi.segments.map(\.url.lastPathComponent) == ["010.m4s", "011.m4s"])
    #expect(hi.segments[0].url.path.hasSuffix("/hi/5000000/010.m4s"))
    #expect(hi.initialization?.url.lastPathComponent == "init-5000000.mp4")
    #expect(hi.segments.map(\.time) == [0, 4000] && hi.timescale == 1000)
    let lo = try listing(mpd, 0, 0, 1)
    // `$$` is a dollar sign; "$" in a URL is kept as is.
    #expect(lo.segments.map(\.url.lastPathComponent) == ["$1$.m4s", "$2$.m4s"])
    #expect(lo.initialization?.url.lastPathComponent == "init-800000.mp4")
  }

  @Test func aTimeTemplateUsesTheTimelineAndThePresentationTimeOffset() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT10S">
        <Period><AdaptationSet><Representation id="v" bandwidth="1">
          <SegmentTemplate timescale="10" presentationTimeOffset="1000" media="t$Time$.m4s" startNumber="5">
            <SegmentTimeline><S t="1000" d="20" r="1"/><S d="30"/><S t="1080" d="10" r="-1"/></SegmentTimeline>
          </SegmentTemplate>
        </Representation></AdaptationSet></Period>
      </MPD>
      """)
    let segments = try listing(mpd, 0, 0).segments
    // Two of 2 s, one of 3 s, then 1 s ones to the Period's end at 1000 + 10 s * 10.
    #expect(segments.map(\.time) == [1000, 1020, 1040, 1080, 1090])
    #expect(segments.map(\.number) == [5, 6, 7, 8, 9])
    #expect(
      segments.map(\.url.lastPathComponent) == [
        "t1000.m4s", "t1020.m4s", "t1040.m4s", "t1080.m4s", "t1090.m4s",
      ])
  }

  @Test func aRepeatOfMinusOneStopsAtTheNextEntrysTime() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD mediaPresentationDuration="PT100S"><Period><AdaptationSet><Representation id="v" bandwidth="1">
        <SegmentTemplate media="$Number$"><SegmentTimeline><S t="0" d="3" r="-1"/><S t="10" d="5"/></SegmentTimeline></SegmentTemplate>
      </Representation></AdaptationSet></Period></MPD>
      """)
    #expect(try listing(mpd, 0, 0).segments.map(\.time) == [0, 3, 6, 9, 10])
  }

  @Test func contentProtectionRolesAndPrefixedNamesAreRead() throws {
    let mpd = try MPDParser.parse(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <dash:MPD xmlns:dash="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013"
          xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:x="urn:example:vendor" type="static"
          mediaPresentationDuration="PT1M" x:vendor="1">
        <x:Extension><x:Anything deep="yes"/></x:Extension>
        <dash:Period xlink:actuate="onLoad">
          <dash:AdaptationSet contentType="video" mimeType="video/mp4">
            <dash:ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="9eb4050d-e44b-4802-932e-27d75083e266"/>
            <dash:ContentProtection schemeIdUri="urn:uuid:EDEF8BA9-79D6-4ACE-A3C8-27DCD51D21ED">
              <cenc:pssh>
                AAAANHBzc2gAAAAA7e+LqXnWSs6jyCfc1R0h7QAAABQIARIQnrQFDeRLSAKTLifXUIPiZg==
              </cenc:pssh>
            </dash:ContentProtection>
            <dash:Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
            <dash:Representation id="1" bandwidth="1" unknownAttribute="kept quiet">
              <dash:ContentProtection schemeIdUri="urn:uuid:9a04f079-9840-4286-ab92-e65be0885f95" value="MSPR 2.0"/>
            </dash:Representation>
          </dash:AdaptationSet>
        </dash:Period>
      </dash:MPD>
      """)
    let set = mpd.periods[0].adaptationSets[0]
    #expect(set.contentProtections.map(\.keySystemName) == [nil, "Widevine"])
    #expect(set.contentProtections[0].defaultKID == "9eb4050d-e44b-4802-932e-27d75083e266")
    #expect(set.contentProtections[1].pssh?.hasPrefix("AAAANHBzc2g") == true)
    #expect(mpd.contentProtections.compactMap(\.keySystemName) == ["Widevine", "PlayReady"])
    #expect(set.roles.map(\.value) == ["main"])
    #expect(mpd.periodDuration(at: 0) == 60)
  }

  @Test func aDynamicManifestParsesAndIsFlaggedLive() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:DASH:schema:MPD:2011" type="dynamic" availabilityStartTime="2012-09-05T09:00:00Z"
          minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT30S">
        <Period><AdaptationSet mimeType="video/mp4">
          <SegmentTemplate timescale="90000" media="$RepresentationID$/$Number$.m4s" duration="360000" startNumber="0"/>
          <Representation id="v" bandwidth="1"/>
        </AdaptationSet></Period>
      </MPD>
      """)
    #expect(mpd.isLive)
    // A live Period has no known end, so its template cannot be listed.
    #expect(throws: MPDError.self) { try listing(mpd, 0, 0) }
  }
}
