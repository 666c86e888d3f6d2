import DASHManifest
import Foundation
import TestTiming
import Testing

/// Issue 36, item 1: the offline manifest describes segment files numbered one by one as a
/// `SegmentTemplate` with `$Number$` (what ffmpeg 5.1 decodes to the end), and that template
/// addresses exactly the files the caller named; any other names stay a `SegmentList`.
@Suite(.timed) struct OfflineTemplateTests {
  let video = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)
  let mpd: MPD

  init() throws {
    mpd = try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT40S"><Period>
        <AdaptationSet contentType="video"><Representation id="v" bandwidth="1">
          <SegmentTemplate media="$Time$.m4s" timescale="10"><SegmentTimeline>
            <S t="5" d="20" r="19"/></SegmentTimeline></SegmentTemplate>
        </Representation></AdaptationSet>
      </Period></MPD>
      """)
  }

  /// The offline manifest of Representation `v` with `names` (2 s each from 0.5 s, in
  /// tenths), written and parsed again.
  func offline(_ names: [String], initialization: String? = "v/init.mp4") throws -> MPD {
    let files = OfflineRepresentation(
      initialization: initialization,
      segments: names.enumerated().map { index, name in
        .init(name: name, time: 5 + 20 * UInt64(index), duration: 20)
      }, timescale: 10)
    let made = try OfflineManifest.make(from: mpd, files: [video: files])
    return try MPDParser.parse(MPDWriter.write(made))
  }

  static let numbered: [[String]] = [
    (0..<20).map { String(format: "p0/a0-r0/s%05d.m4s", $0) },
    (1...12).map { "v/segment-\($0).m4s" },
    (7..<27).map { "v/\($0).webm" },
    (98...102).map { String(format: "v2/s%03d", $0) },
  ]

  @Test(arguments: numbered)
  func namesNumberedOneByOneBecomeATemplateThatAddressesTheSameFiles(_ names: [String]) throws {
    let copy = try offline(names)
    let info = copy.periods[0].adaptationSets[0].representations[0].segmentInfo
    #expect(info.list == nil)
    let template = try #require(info.template)
    #expect(template.media?.contains("$Number") == true)
    #expect(template.initializationTemplate == "v/init.mp4")
    #expect(
      template.timeline == [
        SegmentTimelineEntry(time: 5, duration: 20, repeatCount: names.count - 1)
      ])
    let folder = URL(fileURLWithPath: "/offline/index.mpd")
    let listing = try SegmentResolver().segments(for: video, in: copy, manifestURL: folder)
    #expect(listing.segments.map(\.url.path) == names.map { "/offline/" + $0 })
    #expect(listing.segments.map(\.time) == names.indices.map { 5 + 20 * UInt64($0) })
    #expect(listing.initialization?.url.path == "/offline/v/init.mp4")
  }

  @Test func ffmpegsOwnNamesOfAWholeRunGiveItsPaddedNumberPattern() throws {
    let names = (0..<20).map { String(format: "p0/a0-r0/s%05d.m4s", $0) }
    let template = try offline(names).periods[0].adaptationSets[0].representations[0]
      .segmentInfo.template
    #expect(template?.media == "p0/a0-r0/s$Number%05d$.m4s" && template?.startNumber == 0)
  }

  static let unnumbered: [[String]] = [
    ["v/a.m4s", "v/b.m4s", "v/c.m4s"],
    ["v/s1.m4s", "v/s3.m4s", "v/s4.m4s"],
    ["v/s09.m4s", "v/s10.m4s", "v/s011.m4s"],
    ["v/s$1.m4s", "v/s$2.m4s", "v/s$3.m4s"],
    ["v/s1.m4s", "w/s2.m4s", "v/s3.m4s"],
  ]

  @Test(arguments: unnumbered)
  func namesThatDoNotCountUpStayASegmentListOfTheSameNames(_ names: [String]) throws {
    let info = try offline(names).periods[0].adaptationSets[0].representations[0].segmentInfo
    #expect(info.template == nil)
    #expect(info.list?.segmentURLs.map(\.media) == names)
  }

  /// A template names its init section with `@initialization`, where a `$` would be read
  /// as an identifier.
  @Test func anInitSectionNameWithADollarKeepsTheSegmentList() throws {
    let names = (0..<3).map { "v/s\($0).m4s" }
    let info = try offline(names, initialization: "v/in$it.mp4").periods[0].adaptationSets[0]
      .representations[0].segmentInfo
    #expect(info.template == nil && info.list?.initialization?.sourceURL == "v/in$it.mp4")
  }
}
