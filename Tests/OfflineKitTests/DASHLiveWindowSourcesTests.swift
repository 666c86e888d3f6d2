import DASHManifest
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: the sources a live DASH recording's window lists for each segment
/// (its other `BaseURL`s), read from a `dynamic` MPD without I/O; the order a steering
/// answer gives them is the order the recording keeps for every MPD update.
@Suite(.timed) struct DASHLiveWindowSourcesTests {
  static let manifestURL = URL(string: "https://origin.example/live/live.mpd")!

  /// A live MPD, started at 08:00:00, one-second segments, with `bases` as its `BaseURL`s.
  static func mpd(_ bases: String) throws -> MPD {
    let text = """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:dvb="urn:dvb:dash:dash-extensions:2014-1"
        type="dynamic" availabilityStartTime="2027-01-15T08:00:00Z" minimumUpdatePeriod="PT1S"
        timeShiftBufferDepth="PT30S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
      \(bases)
      <Period id="p0" start="PT0S"><AdaptationSet contentType="video" mimeType="video/mp4">
      <SegmentTemplate timescale="1000" duration="1000" startNumber="1"
        initialization="init-$RepresentationID$.m4s" media="chunk-$RepresentationID$-$Number$.m4s"/>
      <Representation id="v" bandwidth="100000" codecs="avc1.64000d" width="160" height="90"/>
      </AdaptationSet></Period></MPD>
      """
    return try MPDParser.parse(Data(text.utf8))
  }

  static let path = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)
  static let now = ISO8601DateFormatter().date(from: "2027-01-15T08:00:05Z")!

  @Test func eachSegmentHasItsURLAtEveryOtherServiceLocation() throws {
    let mpd = try Self.mpd(
      #"<BaseURL serviceLocation="a">https://a.example/s/</BaseURL>"#
        + #"<BaseURL serviceLocation="b">https://b.example/s/</BaseURL>"#)
    let window = try DASHLiveWindow(
      Self.path, of: mpd, manifestURL: Self.manifestURL, at: Self.now)
    #expect(!window.segments.isEmpty)
    #expect(window.sourceNames.map(\.host) == ["a.example", "b.example"])
    #expect(window.sourceLocations == ["a", "b"])
    for segment in window.segments {
      #expect(segment.url.host == "a.example")
      let others = window.alternates[segment.url.absoluteString] ?? []
      #expect(
        others.map(\.absoluteString) == [
          segment.url.absoluteString.replacing("a.example", with: "b.example")
        ])
    }
    #expect(
      window.initializationAlternates.map(\.absoluteString) == ["https://b.example/s/init-v.m4s"])
  }

  /// Steered `b` first (as a steering answer does), `b` is the first source and `a` the
  /// alternate, whatever `dvb:priority` said.
  @Test func aSteeredMPDPutsTheSteeredLocationFirst() throws {
    let mpd = try Self.mpd(
      #"<BaseURL serviceLocation="a" dvb:priority="1">https://a.example/s/</BaseURL>"#
        + #"<BaseURL serviceLocation="b" dvb:priority="2">https://b.example/s/</BaseURL>"#)
    let window = try DASHLiveWindow(
      Self.path, of: mpd.steered(by: ["b", "a"]), manifestURL: Self.manifestURL, at: Self.now)
    #expect(window.sourceLocations == ["b", "a"])
    #expect(window.segments.allSatisfy { $0.url.host == "b.example" })
  }

  @Test func oneBaseURLIsOneSourceWithoutAlternates() throws {
    let mpd = try Self.mpd(#"<BaseURL>https://a.example/s/</BaseURL>"#)
    let window = try DASHLiveWindow(
      Self.path, of: mpd, manifestURL: Self.manifestURL, at: Self.now)
    #expect(!window.segments.isEmpty)
    #expect(window.sourceNames.isEmpty && window.sourceLocations.isEmpty)
    #expect(window.alternates.isEmpty && window.initializationAlternates.isEmpty)
  }
}
