import DASHManifest
import Foundation
import TestTiming
import Testing

/// Pins issue 36, item 14: manifests from other projects' test suites that players (dash.js,
/// Shaka, ExoPlayer) accept were refused for attributes that do not change which bytes to
/// fetch. Each is written again here after the construct found; none of their files is
/// copied. What does change the bytes stays refused, with the element named.
@Suite(.timed) struct PlayerAcceptedManifestTests {
  let base = URL(string: "https://origin.example.com/show/manifest.mpd")!

  func manifest(_ set: String, duration: String = "PT8S") -> String {
    """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="\(duration)">
    <Period>\(set)</Period></MPD>
    """
  }

  func listing(_ mpd: MPD, _ representation: Int = 0) throws -> RepresentationSegments {
    try SegmentResolver().segments(
      for: RepresentationPath(period: 0, adaptationSet: 0, representation: representation),
      in: mpd, manifestURL: base)
  }

  /// `@bandwidth` is missing from a Representation: it is unknown, not an error.
  @Test func aRepresentationWithoutBandwidthParses() throws {
    let mpd = try MPDParser.parse(
      manifest(
        """
        <AdaptationSet mimeType="video/mp4"><SegmentTemplate media="$RepresentationID$-$Number$.m4s" duration="4"/>
        <Representation id="a" width="640" height="360"/><Representation id="b" bandwidth="900000"/>
        </AdaptationSet>
        """))
    #expect(mpd.periods[0].adaptationSets[0].representations.map(\.id) == ["a", "b"])
    #expect(try listing(mpd).segments.map(\.url.lastPathComponent) == ["a-1.m4s", "a-2.m4s"])
  }

  /// `$Bandwidth$` needs the value: without it the URL cannot be made.
  @Test func aBandwidthTemplateWithoutBandwidthIsRefusedNamingTheRepresentation() throws {
    let mpd = try MPDParser.parse(
      manifest(
        """
        <AdaptationSet mimeType="video/mp4"><SegmentTemplate media="$Bandwidth$/$Number$.m4s" duration="4"/>
        <Representation id="a"/></AdaptationSet>
        """))
    #expect {
      try listing(mpd)
    } throws: { error in
      let error = error as? MPDError
      return error?.kind == .missingAttribute
        && error?.path == "MPD/Period[1]/AdaptationSet[1]/Representation[1]"
        && error?.message.contains("$Bandwidth$") == true
    }
  }

  @Test(arguments: ["30.0", "15.00", "29.97", "25"])
  func aDecimalFrameRateIsReadAsANumber(_ rate: String) throws {
    let mpd = try MPDParser.parse(
      manifest(
        "<AdaptationSet><Representation id=\"v\" bandwidth=\"1\" frameRate=\"\(rate)\"/></AdaptationSet>"
      ))
    let parsed = mpd.periods[0].adaptationSets[0].representations[0].common.frameRate
    #expect(parsed?.framesPerSecond == Double(rate))
  }

  @Test(arguments: ["abc", "30.", ".5", "-30", "30/0", "1e3", "30.0/1"])
  func aMalformedFrameRateIsStillRefused(_ rate: String) {
    #expect(throws: MPDError.self) {
      try MPDParser.parse(
        manifest(
          "<AdaptationSet><Representation id=\"v\" bandwidth=\"1\" frameRate=\"\(rate)\"/></AdaptationSet>"
        ))
    }
  }

  /// dash.js's gap tests: `presentationTimeOffset="-130000"` on audio. The offset is kept as
  /// written (the offline MPD must shift the audio like the origin); the segments are the same.
  @Test func aNegativePresentationTimeOffsetIsKept() throws {
    let mpd = try MPDParser.parse(
      manifest(
        """
        <AdaptationSet mimeType="audio/mp4">
        <SegmentTemplate initialization="$RepresentationID$_i.mp4" presentationTimeOffset="-130000"
            media="$RepresentationID$_$Number$.m4s" startNumber="1" timescale="44100">
          <SegmentTimeline><S d="176400" t="0"/><S d="176400" r="-1"/></SegmentTimeline>
        </SegmentTemplate>
        <Representation id="a1" bandwidth="129896"/></AdaptationSet>
        """))
    let listing = try listing(mpd)
    #expect(listing.segments.map(\.url.lastPathComponent) == ["a1_1.m4s", "a1_2.m4s"])
    #expect("\(listing.presentationTimeOffset)" == "-130000")
  }

  /// The offline copy keeps what was accepted as it came: the negative offset (so the audio
  /// is shifted as at the origin), no `@bandwidth` where there was none, the decimal frame
  /// rate as the same number; and it reads back.
  @Test func theOfflineCopyKeepsANegativeOffsetAndAnUnknownBandwidth() throws {
    let mpd = try MPDParser.parse(
      manifest(
        """
        <AdaptationSet mimeType="audio/mp4" frameRate="29.97">
        <SegmentTemplate presentationTimeOffset="-130000" media="$Number$.m4s" timescale="44100">
          <SegmentTimeline><S d="176400" t="0" r="1"/></SegmentTimeline>
        </SegmentTemplate><Representation id="a1"/></AdaptationSet>
        """))
    let path = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)
    let files = try OfflineRepresentation(
      listing(mpd), initialization: nil, segmentNames: ["s0.m4s", "s1.m4s"])
    let text = MPDWriter.write(try OfflineManifest.make(from: mpd, files: [path: files]))
    #expect(text.contains("presentationTimeOffset=\"-130000\""), "\(text)")
    #expect(!text.contains("bandwidth"), "\(text)")
    #expect(text.contains("frameRate=\"2997/100\""), "\(text)")
    let again = try MPDParser.parse(text)
    let set = again.periods[0].adaptationSets[0]
    #expect(set.representations[0].bandwidth == nil)
    #expect(set.common.frameRate?.framesPerSecond == 29.97)
    let copy = try SegmentResolver().segments(for: path, in: again, manifestURL: base)
    #expect(copy.presentationTimeOffset == -130_000)
    #expect(copy.segments.map(\.time) == [0, 176_400])
  }

  /// `S@d="0"`: a segment that lasts no time. Players find segments by time, so none asks for
  /// it, but it takes its place among the numbers (dash.js counts it): it is not fetched and
  /// the segments after it keep their `$Number$`.
  @Test func aZeroDurationEntryIsNotFetchedButKeepsItsNumber() throws {
    let mpd = try MPDParser.parse(
      manifest(
        """
        <AdaptationSet mimeType="video/mp4"><SegmentTemplate media="n$Number$.m4s">
          <SegmentTimeline><S t="0" d="0"/><S d="4" r="1"/></SegmentTimeline>
        </SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet>
        """))
    let segments = try listing(mpd).segments
    #expect(segments.map(\.url.lastPathComponent) == ["n2.m4s", "n3.m4s"])
    #expect(segments.map(\.time) == [0, 4])
  }

  /// A zero duration repeated to the end of the Period would never end: refused, named.
  @Test func aZeroDurationRepeatedToTheEndIsRefusedNamingTheEntry() {
    #expect {
      try MPDParser.parse(
        manifest(
          """
          <AdaptationSet><SegmentTemplate media="$Number$.m4s">
            <SegmentTimeline><S d="0" r="-1"/></SegmentTimeline>
          </SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet>
          """))
    } throws: { error in
      let error = error as? MPDError
      return error?.kind == .malformedValue
        && error?.path
          == "MPD/Period[1]/AdaptationSet[1]/SegmentTemplate[1]/SegmentTimeline[1]/S[1]"
    }
  }

  /// `$SubNumber$` (ISO/IEC 23009-1 5th edition, segment sequences `S@k`, used by low-latency
  /// live streams): the manifest parses, so `offline info` lists it, but which resources the
  /// parts are is not settled between players (dash.js and DASH-IF's livesim2 count from 0),
  /// so a download of such a Representation is refused naming `$SubNumber$`.
  @Test func aSubNumberTemplateParsesAndItsListingIsRefusedNamingIt() throws {
    let mpd = try MPDParser.parse(
      manifest(
        """
        <AdaptationSet mimeType="video/mp4"><SegmentTemplate media="$Number$_$SubNumber$.m4s" timescale="1">
          <SegmentTimeline><S t="0" d="4" k="2" r="1"/></SegmentTimeline>
        </SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet>
        """))
    #expect(mpd.periods[0].adaptationSets[0].representations.count == 1)
    #expect {
      try listing(mpd)
    } throws: { error in
      let error = error as? MPDError
      return error?.kind == .unsupported
        && error?.path == "MPD/Period[1]/AdaptationSet[1]/Representation[1]/SegmentTemplate"
        && error?.message.contains("$SubNumber$") == true
    }
  }
}
