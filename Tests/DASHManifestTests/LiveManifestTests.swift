import DASHManifest
import Foundation
import TestTiming
import Testing

/// A live (`type="dynamic"`) MPD: its timing attributes, and which segments are available at
/// a given wall-clock instant.
@Suite(.timed) struct LiveManifestTests {
  /// 2026-12-07T10:00:00Z.
  let start = Date(timeIntervalSince1970: 1_796_637_600)
  let url = URL(string: "https://cdn.example/live/stream.mpd")!

  /// A dynamic MPD with one video Representation whose template is `template`.
  func mpd(_ template: String, attributes: String = "", period: String = "") throws -> MPD {
    try MPDParser.parse(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic"
        availabilityStartTime="2026-12-07T10:00:00Z" \(attributes)>
        <Period id="p0" \(period)><AdaptationSet contentType="video">
          \(template)
          <Representation id="v1" bandwidth="500000"/>
        </AdaptationSet></Period>
      </MPD>
      """)
  }

  let path = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)

  func numbers(_ mpd: MPD, after seconds: Double) throws -> [UInt64] {
    try SegmentResolver().availableSegments(
      for: path, in: mpd, manifestURL: url, at: start + seconds
    ).segments.compactMap(\.number)
  }

  @Test func readsTheLiveTimingAttributesAndUTCTimingSources() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD type="dynamic" availabilityStartTime="2026-12-07T10:00:00Z"
        publishTime="2026-12-07T11:30:15.250+01:00" minimumUpdatePeriod="PT2S"
        timeShiftBufferDepth="PT1M" suggestedPresentationDelay="PT6S">
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="https://t.example/iso"/>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="https://t.example/x"/>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-12-07T10:31:00Z"/>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/>
      </MPD>
      """)
    #expect(mpd.isLive)
    #expect(mpd.live.availabilityStartTime == start)
    #expect(mpd.live.publishTime == start + 30 * 60 + 15.25)
    #expect(mpd.live.minimumUpdatePeriod == 2)
    #expect(mpd.live.timeShiftBufferDepth == 60)
    #expect(mpd.live.suggestedPresentationDelay == 6)
    #expect(
      mpd.live.utcTimings.map(\.scheme) == [
        .httpISO, .httpXSDate, .direct, .other("urn:mpeg:dash:utc:ntp:2014"),
      ])
    #expect(mpd.live.utcTimings[2].directDate == start + 31 * 60)
    #expect(mpd.live.utcTimings[0].directDate == nil)
  }

  @Test(arguments: [
    ("2026-12-07T10:00:00", 0.0), ("2026-12-07T10:00:00.5Z", 0.5),
    ("2026-12-07T08:00:00-02:00", 0), ("2026-12-08T00:00:00+14:00", 0),
    ("2026-12-07T09:59:59.999Z", -0.001),
  ])
  func readsDatesAndTimesWithAndWithoutAZone(_ text: String, _ seconds: Double) throws {
    let date = try #require(UTCTiming.date(fromBody: " \(text)\n"))
    #expect(abs(date.timeIntervalSince(start) - seconds) < 1e-6)
  }

  @Test(arguments: [
    "2026-12-07", "2026-13-07T10:00:00Z", "2026-02-29T10:00:00Z", "2026-12-07T10:60:00Z",
    "2026-12-07 10:00:00Z", "2026-12-07T10:00:00+1:00", "yesterday",
  ])
  func refusesWhatIsNotADateAndTime(_ text: String) {
    #expect(UTCTiming.date(fromBody: text) == nil)
    #expect(throws: MPDError.self) {
      try MPDParser.parse("<MPD type=\"dynamic\" availabilityStartTime=\"\(text)\"/>")
    }
  }

  @Test func aNumberedSegmentIsAvailableOnceCompleteAndUntilItLeavesTheTimeShiftBuffer()
    throws
  {
    let mpd = try mpd(
      #"<SegmentTemplate media="v-$Number$.m4s" initialization="v-init.mp4" timescale="1000" duration="2000" startNumber="5"/>"#,
      attributes: #"timeShiftBufferDepth="PT10S""#)
    #expect(try numbers(mpd, after: -5).isEmpty)
    #expect(try numbers(mpd, after: 1.9).isEmpty)
    #expect(try numbers(mpd, after: 2) == [5])
    #expect(try numbers(mpd, after: 9.5) == [5, 6, 7, 8])
    // At 100 s, segment index 43 (number 48, 86-88 s) is available until 88 + 10 + 2 s.
    #expect(try numbers(mpd, after: 100) == Array(48...54))
    #expect(try numbers(mpd, after: 100.5) == Array(49...54))
  }

  @Test func numberedSegmentsCarryTheirURLTimeAndDuration() throws {
    let mpd = try mpd(
      #"<SegmentTemplate media="v-$Number$.m4s" initialization="v-init.mp4" timescale="90000" duration="180000" presentationTimeOffset="900"/>"#
    )
    let listing = try SegmentResolver().availableSegments(
      for: path, in: mpd, manifestURL: url, at: start + 6.5)
    #expect(
      listing.segments.map(\.url.absoluteString)
        == [1, 2, 3].map {
          "https://cdn.example/live/v-\($0).m4s"
        })
    #expect(listing.segments.compactMap(\.time) == [900, 180_900, 360_900])
    #expect(listing.segments.allSatisfy { $0.duration == 180_000 })
    #expect(listing.initialization?.url.absoluteString == "https://cdn.example/live/v-init.mp4")
  }

  @Test func withoutATimeShiftBufferEverySegmentSinceTheStartIsAvailable() throws {
    let mpd = try mpd(#"<SegmentTemplate media="$Number$.m4s" duration="4"/>"#)
    #expect(try numbers(mpd, after: 4_000) == Array(1...1_000))
  }

  @Test func aPeriodStartDelaysTheFirstSegment() throws {
    let mpd = try mpd(
      #"<SegmentTemplate media="$Number$.m4s" duration="2"/>"#, period: #"start="PT10S""#)
    #expect(try numbers(mpd, after: 11).isEmpty)
    #expect(try numbers(mpd, after: 14) == [1, 2])
  }

  @Test func aNumberedTemplateWithoutAnAvailabilityStartIsRefused() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD type="dynamic"><Period start="PT0S"><AdaptationSet>
        <SegmentTemplate media="$Number$.m4s" duration="2"/><Representation id="a"/>
      </AdaptationSet></Period></MPD>
      """)
    let error = #expect(throws: MPDError.self) {
      try SegmentResolver().availableSegments(
        for: path, in: mpd, manifestURL: url, at: start)
    }
    #expect(error?.code == .missingAttribute)
    #expect(error?.message.contains("availabilityStartTime") == true)
  }

  @Test func anOpenEndedTimelineRepeatsUpToTheLastCompleteSegment() throws {
    let mpd = try mpd(
      """
      <SegmentTemplate media="v-$Time$.m4s" timescale="1000">
        <SegmentTimeline><S t="4000" d="2000" r="-1"/></SegmentTimeline>
      </SegmentTemplate>
      """)
    let listing = try SegmentResolver().availableSegments(
      for: path, in: mpd, manifestURL: url, at: start + 11.5)
    #expect(listing.segments.compactMap(\.time) == [4000, 6000, 8000])
    #expect(listing.segments.last?.url.lastPathComponent == "v-8000.m4s")
  }

  @Test func aListedTimelineKeepsWhatIsCompleteAndInTheTimeShiftBuffer() throws {
    let mpd = try mpd(
      """
      <SegmentTemplate media="v-$Number$.m4s" timescale="10" startNumber="20">
        <SegmentTimeline><S t="0" d="20" r="9"/></SegmentTimeline>
      </SegmentTemplate>
      """, attributes: #"timeShiftBufferDepth="PT6S""#)
    // At 15 s: segments ending by 15 s, and not ended before 15 - 6 - 2 = 7 s.
    #expect(try numbers(mpd, after: 15) == [23, 24, 25, 26])
  }
}
