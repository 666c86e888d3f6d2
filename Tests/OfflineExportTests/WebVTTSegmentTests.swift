import Foundation
import TestTiming
import Testing

@testable import OfflineExport

/// The WebVTT segments of an HLS subtitle rendition: cue times moved by `X-TIMESTAMP-MAP`
/// (RFC 8216, 3.5), blocks that are not cues skipped, a cue two segments repeat kept once.
@Suite(.timed) struct WebVTTSegmentTests {
  @Test func theTimestampMapMovesCuesOntoTheMediaTimeline() {
    let cues = WebVTTSegment.cues(
      in: "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n"
        + "00:00:01.000 --> 00:00:02.500 align:start\nHello\nthere\n")
    #expect(
      cues == [WebVTTCue(start: 11, end: 12.5, text: "Hello\nthere", isOnMediaTimeline: true)])
  }

  @Test func theMapMayNameLocalFirstAndCueTimesMayLeaveOutTheHours() {
    let cues = WebVTTSegment.cues(
      in: "WEBVTT\r\nX-TIMESTAMP-MAP=LOCAL:00:00:10.000,MPEGTS:180000\r\n\r\n"
        + "00:12.000 --> 00:13.000\r\nLater\r\n")
    #expect(cues == [WebVTTCue(start: 4, end: 5, text: "Later", isOnMediaTimeline: true)])
  }

  @Test func withoutAMapCuesCountFromThePresentationsStart() {
    let cues = WebVTTSegment.cues(in: "WEBVTT\n\n00:00:00.500 --> 00:00:01.000\nHi\n")
    #expect(cues == [WebVTTCue(start: 0.5, end: 1, text: "Hi", isOnMediaTimeline: false)])
  }

  @Test func notesStylesAndIdentifiersAreNotCuesAndOtherTextIsNoSegment() {
    let cues = WebVTTSegment.cues(
      in: "WEBVTT - a title\n\nNOTE a comment --> with an arrow\n\nSTYLE\n::cue { color: red }\n\n"
        + "intro\n00:00:01.000 --> 00:00:02.000\nOne\n\n00:00:03.000 --> 00:00:02.000\nBackwards\n")
    #expect(cues.map(\.text) == ["One"])
    #expect(WebVTTSegment.cues(in: "1\n00:00:01,000 --> 00:00:02,000\nSRT\n").isEmpty)
  }

  @Test func aCueTwoSegmentsRepeatIsKeptOnceAndCuesComeInTimeOrder() {
    let spanning = WebVTTCue(start: 1.5, end: 2.5, text: "Across", isOnMediaTimeline: true)
    let merged = WebVTTRendition.merged([
      WebVTTCue(start: 0.5, end: 1, text: "First", isOnMediaTimeline: true), spanning,
      WebVTTCue(start: 3, end: 4, text: "Last", isOnMediaTimeline: true), spanning,
    ])
    #expect(merged.map(\.text) == ["First", "Across", "Last"])
  }
}
