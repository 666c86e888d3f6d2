import DASHManifest
import Foundation
import Testing

@testable import OfflineKit

/// How the offline MPD of a live DASH recording lists a track's segments
/// (``DASHLiveTimeTemplate``): by their times, so a gap is a hole in the timeline and not a
/// `SegmentList`, which ffmpeg 5.1 and mpv stop reading early.
@Suite(.timed) struct DASHLiveTimeTemplateTests {
  func files(_ times: [UInt64], named name: (UInt64) -> String) -> OfflineRepresentation {
    OfflineRepresentation(
      initialization: "p0/a0-r0/init.mp4",
      segments: times.map { .init(name: name($0), time: $0, duration: 100) }, timescale: 1000,
      presentationTimeOffset: Int64(times.first ?? 0))
  }

  @Test func aGapIsAHoleInTheTimelineOfSegmentsNamedByTheirTimes() throws {
    let folder = "p0/a0-r0"
    let recorded = files([500, 600, 700, 1000, 1100]) {
      DASHLiveTimeTemplate.localName(folder: folder, time: $0)
    }
    let template = try #require(DASHLiveTimeTemplate.template(recorded, folder: folder))
    #expect(template.media == "p0/a0-r0/t$Time$.m4s")
    #expect(template.initializationTemplate == "p0/a0-r0/init.mp4")
    #expect(template.presentationTimeOffset == 500)
    #expect(
      template.timeline == [
        SegmentTimelineEntry(time: 500, duration: 100, repeatCount: 2),
        SegmentTimelineEntry(time: 1000, duration: 100, repeatCount: 1),
      ])
  }

  @Test func segmentsNamedByNumberByAnEarlierVersionKeepTheirListing() {
    let folder = "p0/a0-r0"
    let mixed = files([0, 100]) { $0 == 0 ? "p0/a0-r0/s000001.m4s" : "p0/a0-r0/t100.m4s" }
    #expect(DASHLiveTimeTemplate.template(mixed, folder: folder) == nil)
  }
}
