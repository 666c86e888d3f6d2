import DASHManifest
import Foundation
import TestTiming
import Testing

/// Small manifests of our own, written after constructs found in other projects' test
/// manifests (Shaka Player's `assets/`, dash.js's `samples/` and test files, the DASH-IF
/// conformance examples); none of their files is copied. Each parses, and those we support
/// give the right Representation and segment counts.
@Suite(.timed) struct OtherProjectsManifestTests {
  let resolver = SegmentResolver()

  func counts(_ mpd: MPD, base: URL) throws -> [Int] {
    try mpd.representationPaths.map {
      try resolver.segments(for: $0, in: mpd, manifestURL: base).segments.count
    }
  }

  /// Shaka's on-demand car manifests: an explicit `t` on every `S`, a first `t` that is not
  /// 0, no `mediaPresentationDuration`, and a network-path `BaseURL` naming the manifest.
  @Test func aTimelineWithAnExplicitTimeOnEveryEntry() throws {
    let mpd = try MPDParser.parse(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <MPD xmlns="urn:mpeg:DASH:schema:MPD:2011" minBufferTime="PT2S" type="static"
          availabilityStartTime="2014-09-19T00:54:13" timeShiftBufferDepth="PT1800S">
        <BaseURL>//media.example.org/dash/car/car.mpd</BaseURL>
        <Period start="PT0S"><AdaptationSet id="0">
          <Representation id="0" bandwidth="2000000" codecs="avc1.4d401e" mimeType="video/mp4">
            <ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"/>
            <SegmentTemplate timescale="90000" initialization="car-init.mp4" media="car-$Number$.mp4">
              <SegmentTimeline>
                <S t="3754" d="900960"/><S t="904714" d="1235066"/><S t="2139780" d="1017334"/>
                <S t="3157114" d="112597"/>
              </SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet></Period>
      </MPD>
      """)
    let listing = try resolver.segments(
      for: mpd.representationPaths[0], in: mpd, manifestURL: URL(string: "https://a.example/x.mpd")!
    )
    #expect(listing.segments.map(\.time) == [3754, 904_714, 2_139_780, 3_157_114])
    #expect(
      listing.segments.last?.url.absoluteString == "https://media.example.org/dash/car/car-4.mp4")
    #expect(mpd.contentProtections.map(\.keySystemName) == ["Widevine"])
  }

  /// dash.js's on-demand sample: one file per Representation, `SegmentBase` with
  /// `indexRange`, elements we do not model (`SupplementalProperty`, `Label`,
  /// `AudioChannelConfiguration`) and attributes we do not read (`scanType`).
  @Test func segmentBaseRepresentationsWithElementsWeDoNotModel() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT0H10M0.000S">
        <BaseURL>https://cdn.example.com/title/</BaseURL>
        <Period start="PT0S" duration="PT0H10M0.000S" id="1">
          <AdaptationSet id="264" mimeType="video/mp4" frameRate="25/1" subsegmentAlignment="true">
            <SupplementalProperty schemeIdUri="urn:mpeg:dash:adaptation-set-switching:2016" value="265"/>
            <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
            <Representation id="1" width="384" height="216" scanType="progressive" bandwidth="235197" codecs="avc1.640014">
              <BaseURL>videos/v216.mp4</BaseURL>
              <SegmentBase indexRange="863-2102"><Initialization range="0-862"/></SegmentBase>
            </Representation>
            <Representation id="2" width="640" height="360" bandwidth="602175" codecs="avc1.64001F">
              <BaseURL>videos/v360.mp4</BaseURL>
              <SegmentBase indexRange="863-2102"><Initialization range="0-862"/></SegmentBase>
            </Representation>
          </AdaptationSet>
          <AdaptationSet mimeType="audio/mp4" lang="fra" segmentAlignment="0">
            <Label>Français</Label>
            <Representation id="3" bandwidth="194726" audioSamplingRate="44100" codecs="mp4a.40.2">
              <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
              <BaseURL>audios/fr.mp4</BaseURL>
              <SegmentBase indexRange="729-1980"><Initialization range="0-728"/></SegmentBase>
            </Representation>
          </AdaptationSet>
        </Period>
      </MPD>
      """)
    #expect(mpd.periods[0].adaptationSets.map(\.representations.count) == [2, 1])
    #expect(mpd.periods[0].adaptationSets[1].lang == "fra")
    for path in mpd.representationPaths {
      let listing = try resolver.segments(
        for: path, in: mpd, manifestURL: URL(string: "https://a.example/m.mpd")!)
      #expect(listing.segments.isEmpty && listing.index != nil)
      #expect(listing.index?.url.absoluteString.hasPrefix("https://cdn.example.com/title/") == true)
    }
  }

  /// The DASH-IF conformance examples: single-quoted attributes, tabs, a SegmentList with
  /// `duration` and no `timescale`, `codecs` listing two codecs.
  @Test func aSegmentListWithSingleQuotesAndTabs() throws {
    let mpd = try MPDParser.parse(
      "<?xml version='1.0' encoding='UTF-8'?>\n<MPD\n xmlns='urn:mpeg:dash:schema:mpd:2011'"
        + " minBufferTime='PT10.00S' mediaPresentationDuration='PT30S' type='static'>\n"
        + " <Period start='PT0S' id='1'><AdaptationSet group='1'>\n\t<Representation"
        + " mimeType='video/mp4' codecs='avc1.644028, svc1' width='320' height='240'\n\t\t"
        + "frameRate='15' id='tag0' bandwidth='128000'>\n\t\t<SegmentList duration='10'>\n"
        + "\t<Initialization sourceURL='seg-init.mp4'/>\n\t<SegmentURL media='seg-1.mp4'/>"
        + "<SegmentURL media='seg-2.mp4'/><SegmentURL media='seg-3.mp4'/>\n\t</SegmentList>"
        + "</Representation></AdaptationSet></Period></MPD>\n")
    let representation = mpd.periods[0].adaptationSets[0].representations[0]
    #expect(representation.common.codecs == "avc1.644028, svc1")
    #expect(representation.common.frameRate?.framesPerSecond == 15)
    let listing = try resolver.segments(
      for: mpd.representationPaths[0], in: mpd,
      manifestURL: URL(string: "http://h.example/d/m.mpd")!)
    #expect(listing.segments.map(\.time) == [0, 10, 20])
    #expect(listing.initialization?.url.absoluteString == "http://h.example/d/seg-init.mp4")
  }

  /// dash.js's multi-DRM sample: a template at AdaptationSet level for Representations
  /// without children, `ContentProtection` with `cenc:pssh`, an element in a default
  /// namespace of its own (`pro`), and a vendor element (`dashif:Laurl`).
  @Test func aMultiKeySystemTemplateAtAdaptationSetLevel() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" minBufferTime="PT1.500S" type="static"
          mediaPresentationDuration="PT0H12M14.000S" xmlns:cenc="urn:mpeg:cenc:2013"
          xmlns:dashif="https://dashif.org/">
        <Period duration="PT0H12M14.000S">
          <BaseURL>https://media.example.net/vectors/multidrm/</BaseURL>
          <AdaptationSet segmentAlignment="true" maxWidth="1920" lang="und">
            <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc"
                cenc:default_KID="9eb4050d-e44b-4802-932e-27d75083e266"/>
            <ContentProtection value="MSPR 2.0" schemeIdUri="urn:uuid:9a04f079-9840-4286-ab92-e65be0885f95">
              <cenc:pssh>AAAB5HBzc2g=</cenc:pssh>
              <pro xmlns="urn:microsoft:playready">xAEAAAEAAQ==</pro>
              <dashif:Laurl>https://license.example.net/</dashif:Laurl>
            </ContentProtection>
            <ContentProtection value="Widevine" schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"/>
            <SegmentTemplate timescale="24" media="$RepresentationID$/$Number%04d$.m4s" startNumber="1"
                duration="96" initialization="$RepresentationID$/init.mp4"/>
            <Representation id="1" mimeType="video/mp4" codecs="avc1.64001f" width="512" height="288" bandwidth="389802"></Representation>
            <Representation id="2" mimeType="video/mp4" codecs="avc1.64001f" width="640" height="360" bandwidth="764935"></Representation>
          </AdaptationSet>
          <AdaptationSet segmentAlignment="true" lang="en">
            <SegmentTemplate timescale="24000" media="$RepresentationID$/$Number%04d$.m4s" startNumber="1"
                duration="95232" initialization="$RepresentationID$/init.mp4"/>
            <Representation id="15" mimeType="audio/mp4" codecs="mp4a.40.29" audioSamplingRate="48000" bandwidth="134642"/>
          </AdaptationSet>
        </Period>
      </MPD>
      """)
    let base = URL(string: "https://a.example/m.mpd")!
    // 734 s in 4 s segments, and in 3.968 s ones.
    #expect(try counts(mpd, base: base) == [184, 184, 185])
    let first = try resolver.segments(for: mpd.representationPaths[1], in: mpd, manifestURL: base)
    #expect(
      first.segments[0].url.absoluteString
        == "https://media.example.net/vectors/multidrm/2/0001.m4s")
    #expect(mpd.contentProtections.compactMap(\.keySystemName) == ["PlayReady", "Widevine"])
    #expect(mpd.contentProtections[1].pssh == "AAAB5HBzc2g=")
  }

  /// The DASH-IF examples and dash.js tests also hold what we do not list: live manifests
  /// (uppercase `DASH` namespace, `startNumber="0"`), remote Periods (`xlink:href`), and
  /// elements misspelt on purpose. They parse without error.
  @Test func liveRemoteAndMisspeltManifestsParseWithoutError() throws {
    let live = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:DASH:schema:MPD:2011" type="dynamic" availabilityStartTime="2012-09-05T09:00:00Z"
          mediaPresentationDuration="PT260.266S" maxSegmentDuration="PT4.080S" minBufferTime="PT5.001S">
        <Period><AdaptationSet mimeType="video/mp4">
          <SegmentTemplate presentationTimeOffset="0" timescale="90000" initialization="$RepresentationID$/Header.m4s"
              media="$RepresentationID$/$Number$.m4s" duration="360000" startNumber="0"/>
          <Representation id="video1" width="1280" height="720" frameRate="25" bandwidth="3000000"/>
        </AdaptationSet></Period>
      </MPD>
      """)
    #expect(live.isLive && live.maxSegmentDuration == 4.08)
    let remote = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:xlink="http://www.w3.org/1999/xlink" mediaPresentationDuration="PT10S">
        <Period xlink:href="https://ads.example.com/period.xml" xlink:actuate="onLoad"/>
      </MPD>
      """)
    #expect(remote.periods.count == 1 && remote.representationPaths.isEmpty)
    let misspelt = try MPDParser.parse(
      """
      <!-- a template element misspelt on purpose -->
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT10S"><Period id="1">
        <AdaptationSet mimeType="video/mp4"><SegmentTemplateX media="$Bandwidth$/$Time$.mp4v" duration="10"/>
          <BaseURL>video/</BaseURL><Representation id="v0" bandwidth="250000"/></AdaptationSet>
      </Period></MPD>
      """)
    #expect(misspelt.periods[0].adaptationSets[0].segmentInfo.isEmpty)
  }

  /// libxml2 refuses the "billion laughs" (entities that expand a billion-fold); the parser
  /// must pass that on as an error, having allocated nothing like it.
  @Test func anEntityExpansionBombIsRefused() {
    var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE MPD [\n<!ENTITY a0 \"dashdashdash\">\n"
    for level in 1...9 {
      text += "<!ENTITY a\(level) \"\(String(repeating: "&a\(level - 1);", count: 10))\">\n"
    }
    text += "]>\n<MPD profiles=\"&a9;\"/>\n"
    #expect(throws: MPDError.self) { try MPDParser.parse(text) }
  }
}
