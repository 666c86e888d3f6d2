import DASHManifest
import Foundation
import TestTiming
import Testing

/// Listing segments: bounds, and what cannot be listed.
@Suite(.timed) struct SegmentResolverTests {
  let origin = URL(string: "https://origin.example.com/manifest.mpd")!

  func listing(_ text: String, limit: Int = 200_000) throws -> RepresentationSegments {
    let mpd = try MPDParser.parse(text)
    return try SegmentResolver(maximumSegmentCount: limit).segments(
      for: RepresentationPath(period: 0, adaptationSet: 0, representation: 0), in: mpd,
      manifestURL: origin)
  }

  func representation(_ duration: String, _ inner: String) -> String {
    """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="\(duration)"><Period>
    <AdaptationSet><Representation id="v" bandwidth="1">\(inner)</Representation></AdaptationSet>
    </Period></MPD>
    """
  }

  /// Pins the absurd count: a 1-second template over 100 years would be 3 billion
  /// segments; it must be a typed error, never an allocation.
  @Test func aOneSecondTemplateOverAHundredYearsIsRefused() {
    let text = representation("P100Y", "<SegmentTemplate media=\"$Number$.m4s\" duration=\"1\"/>")
    #expect {
      try listing(text)
    } throws: { error in
      let error = error as? MPDError
      return error?.kind == .tooManySegments
        && error?.path == "MPD/Period[1]/AdaptationSet[1]/Representation[1]/SegmentTemplate"
        && error?.message.contains("200000") == true
    }
  }

  @Test func aHugeRepeatCountIsRefusedBeforeItIsExpanded() {
    let timeline = "<SegmentTimeline><S d=\"1\" r=\"9223372036854775806\"/></SegmentTimeline>"
    let text = representation(
      "PT6S", "<SegmentTemplate media=\"$Number$\">\(timeline)</SegmentTemplate>")
    #expect(throws: MPDError.self) { try listing(text) }
    let endless = "<SegmentTimeline><S d=\"1\" r=\"-1\"/></SegmentTimeline>"
    let long = representation(
      "P100Y", "<SegmentTemplate media=\"$Number$\">\(endless)</SegmentTemplate>")
    #expect(throws: MPDError.self) { try listing(long) }
  }

  @Test func theBoundIsTheCallersToChoose() throws {
    let text = representation("PT10S", "<SegmentTemplate media=\"$Number$\" duration=\"1\"/>")
    #expect(try listing(text, limit: 10).segments.count == 10)
    #expect(throws: MPDError.self) { try listing(text, limit: 9) }
  }

  @Test func timesThatOverflowAreRefused() {
    let timeline =
      "<SegmentTimeline><S t=\"18446744073709551615\" d=\"2\" r=\"1\"/></SegmentTimeline>"
    let text = representation(
      "PT6S", "<SegmentTemplate media=\"$Time$\">\(timeline)</SegmentTemplate>")
    #expect(throws: MPDError.self) { try listing(text) }
  }

  @Test func aTemplateWithoutMediaOrTimingIsRefused() {
    #expect(throws: MPDError.self) {
      try listing(representation("PT6S", "<SegmentTemplate duration=\"2\"/>"))
    }
    #expect(throws: MPDError.self) {
      try listing(representation("PT6S", "<SegmentTemplate media=\"$Number$\"/>"))
    }
  }

  @Test func anUnparsableBaseURLIsRefusedWithItsElement() {
    let text = representation("PT6S", "<BaseURL>http://[bad</BaseURL>")
    #expect {
      try listing(text)
    } throws: { error in
      (error as? MPDError)?.kind == .invalidURL
        && (error as? MPDError)?.path.hasSuffix("Representation[1]/BaseURL") == true
    }
  }

  @Test func aSegmentBaseWithoutAnIndexIsTheWholeFile() throws {
    let text = representation(
      "PT6S", "<BaseURL>a.mp4</BaseURL><SegmentBase><Initialization range=\"0-99\"/></SegmentBase>")
    let result = try listing(text)
    #expect(result.index == nil)
    #expect(result.segments.map(\.url.absoluteString) == ["https://origin.example.com/a.mp4"])
    #expect(result.initialization?.byteRange == ByteRange(first: 0, last: 99))
  }
}
