import DASHManifest
import Foundation
import TestTiming
import Testing

/// Writing a live (`type="dynamic"`) MPD back keeps every live attribute the parser reads.
///
/// Pins a bug: `MPDWriter` dropped `availabilityStartTime`, `publishTime`,
/// `minimumUpdatePeriod`, `timeShiftBufferDepth`, `suggestedPresentationDelay` and the
/// `UTCTiming` elements, so parse → write → parse changed a live MPD (the fuzzer's first
/// dynamic corpus entry failed on it).
@Suite(.timed) struct LiveManifestWriterTests {
  func roundTrip(_ text: String) throws -> (MPD, MPD, String) {
    let mpd = try MPDParser.parse(text)
    let written = MPDWriter.write(mpd)
    return (mpd, try MPDParser.parse(written), written)
  }

  @Test func writesBackEveryLiveTimingAttributeAndUTCTimingSource() throws {
    let (mpd, again, written) = try roundTrip(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic"
        availabilityStartTime="2026-12-07T10:00:00Z"
        publishTime="2026-12-07T11:30:15.250+01:00" minimumUpdatePeriod="PT2S"
        timeShiftBufferDepth="PT1M" suggestedPresentationDelay="PT6.5S">
        <Period id="p0"><AdaptationSet contentType="video">
          <SegmentTemplate media="s$Number$.m4s" duration="2" startNumber="1"/>
          <Representation id="v1" bandwidth="500000"/>
        </AdaptationSet></Period>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="https://t.example/iso"/>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2012" value="https://t.example/x"/>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-12-07T10:31:00Z"/>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/>
      </MPD>
      """)
    #expect(again == mpd)
    #expect(again.live.availabilityStartTime != nil)
    #expect(again.live.utcTimings.count == 4)
    #expect(written.contains("availabilityStartTime=\"2026-12-07T10:00:00Z\""))
    #expect(written.contains("publishTime=\"2026-12-07T10:30:15.25Z\""))
    #expect(written.contains("suggestedPresentationDelay=\"PT6.5S\""))
    #expect(MPDWriter.write(again) == written)
  }

  /// Dates at the ends of what `xs:dateTime` with four-digit years can say, with fractions
  /// that need many digits, and written in other zones.
  @Test(arguments: [
    "0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00.5+01:00", "9999-12-31T23:59:59-14:00",
    "9999-12-31T23:59:59.999999Z", "1970-01-01T00:00:00.000000000000001Z",
    "1969-12-31T23:59:59.123456789Z", "2000-02-29T24:00:00Z", "2026-12-07T10:00:00.1-09:30",
    "1600-03-01T00:00:00.333333333333Z",
    // Found by the fuzzer: a zone beyond ±14:00 (which the parser reads) at year 1.
    "0001-01-01T00:00:00.125+14:08", "0001-01-01T00:00:00+14:59", "9999-12-31T23:59:59.5-14:59",
  ])
  func writesDatesThatReadBackToTheSameInstant(_ date: String) throws {
    let (mpd, again, _) = try roundTrip(
      "<MPD type=\"dynamic\" availabilityStartTime=\"\(date)\" publishTime=\"\(date)\"/>")
    #expect(mpd.live.availabilityStartTime != nil)
    #expect(again == mpd)
  }

  @Test func anOfflineCopyOfALiveMPDHasNoLiveTiming() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD type="dynamic" availabilityStartTime="2026-12-07T10:00:00Z" minimumUpdatePeriod="PT2S">
        <Period id="p0"><AdaptationSet><SegmentList><SegmentURL media="a.m4s"/></SegmentList>
          <Representation id="v1"/></AdaptationSet></Period>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-12-07T10:31:00Z"/>
      </MPD>
      """)
    let offline = try OfflineManifest.make(from: mpd, files: [:])
    #expect(offline.live == LiveTiming())
    let text = MPDWriter.write(offline)
    #expect(!text.contains("availabilityStartTime"))
    #expect(!text.contains("UTCTiming"))
  }
}
