import DASHManifest
import Foundation
import TestTiming
import Testing

/// Issue 36, item 9: what a manifest may expand to is bounded by bytes of URLs and by
/// segments across Periods, worked out before anything is listed (the process-level memory
/// test is `OfflineCLITests/DASHExpansionMemoryTests`).
@Suite(.timed) struct ManifestExpansionTests {
  let base = URL(string: "https://origin.example.com/show/manifest.mpd")!
  let first = RepresentationPath(period: 0, adaptationSet: 0, representation: 0)

  func manifest(periods: Int = 1, seconds: Int, media: String, id: String = "v") -> MPD {
    let period =
      "<Period duration=\"PT\(seconds)S\"><AdaptationSet><SegmentTemplate duration=\"1\""
      + " media=\"\(media)\" initialization=\"$RepresentationID$/i.mp4\"/>"
      + "<Representation id=\"\(id)\" bandwidth=\"1\"/></AdaptationSet></Period>"
    return try! MPDParser.parse(
      "<MPD type=\"static\" mediaPresentationDuration=\"PT\(seconds * periods)S\">"
        + String(repeating: period, count: periods) + "</MPD>")
  }

  /// 20,000 characters in each of 199,999 URLs is 4 GB: refused from the manifest alone.
  @Test func aLongTemplateIsRefusedBeforeItsURLsAreMade() {
    let mpd = manifest(seconds: 199_999, media: String(repeating: "a", count: 20_000) + "$Number$")
    for list in [true, false] {
      #expect {
        let resolver = SegmentResolver()
        if list {
          _ = try resolver.segments(for: first, in: mpd, manifestURL: base)
        } else {
          _ = try resolver.expansion(for: first, in: mpd, manifestURL: base)
        }
      } throws: { error in
        let error = error as? MPDError
        return error?.kind == .urlsTooLarge
          && error?.path == "MPD/Period[1]/AdaptationSet[1]/Representation[1]/SegmentTemplate"
          && error?.message.contains("at most 64 MiB of segment URLs") == true
      }
    }
  }

  @Test func aLongRepresentationIDCountsInEveryURL() throws {
    let id = String(repeating: "r", count: 50_000)
    let mpd = manifest(seconds: 1_000, media: "$RepresentationID$/$Number$.m4s", id: id)
    let expansion = try SegmentResolver().expansion(for: first, in: mpd, manifestURL: base)
    #expect(expansion.segmentCount == 1_000)
    #expect(expansion.urlBytes > 1_001 * 50_000)
    let small = SegmentResolver(maximumURLBytes: 40 << 20)
    #expect(throws: MPDError.self) { try small.segments(for: first, in: mpd, manifestURL: base) }
  }

  /// 50 Periods of 199,999 segments each pass the bound of one Representation but not the
  /// budget of a download.
  @Test func manyPeriodsPassTheBudgetOfADownload() throws {
    let mpd = manifest(periods: 50, seconds: 199_999, media: "s$Number$.m4s")
    var budget = SegmentBudget()
    let resolver = SegmentResolver()
    try budget.spend(resolver.expansion(for: first, in: mpd, manifestURL: base), at: first)
    let second = RepresentationPath(period: 1, adaptationSet: 0, representation: 0)
    #expect {
      try budget.spend(resolver.expansion(for: second, in: mpd, manifestURL: base), at: second)
    } throws: { error in
      let error = error as? MPDError
      return error?.kind == .tooManySegments && error?.path == second.description
        && error?.message.contains("at most 200000 segments in all") == true
    }
    #expect(budget.segmentCount == 199_999)
    var roomier = SegmentBudget(maximumSegmentCount: 400_000)
    for period in 0..<2 {
      let path = RepresentationPath(period: period, adaptationSet: 0, representation: 0)
      try roomier.spend(resolver.expansion(for: path, in: mpd, manifestURL: base), at: path)
    }
    #expect(roomier.segmentCount == 2 * 199_999)
  }

  /// The expansion is an upper bound of the listing, whatever the kind of segment
  /// information.
  @Test(arguments: [
    "<SegmentTemplate duration=\"2\" media=\"$RepresentationID$/$Number%08d$.m4s?b=$Bandwidth%x$\" initialization=\"i.mp4\"/>",
    "<SegmentTemplate media=\"../x/$Time%x$.m4s\"><SegmentTimeline><S t=\"10\" d=\"3\" r=\"-1\"/></SegmentTimeline></SegmentTemplate>",
    "<SegmentList duration=\"2\"><Initialization sourceURL=\"https://other.example.net/i.mp4\"/><SegmentURL media=\"a.m4s\"/><SegmentURL media=\"/b/c.m4s\"/><SegmentURL/></SegmentList>",
    "<BaseURL>file.mp4</BaseURL>",
  ])
  func theExpansionIsAnUpperBoundOfTheListing(_ inner: String) throws {
    let mpd = try MPDParser.parse(
      "<MPD type=\"static\" mediaPresentationDuration=\"PT20S\"><Period><AdaptationSet>"
        + "<Representation id=\"v\" bandwidth=\"1\">\(inner)</Representation>"
        + "</AdaptationSet></Period></MPD>")
    let resolver = SegmentResolver()
    let expansion = try resolver.expansion(for: first, in: mpd, manifestURL: base)
    let listing = try resolver.segments(for: first, in: mpd, manifestURL: base)
    let urls = listing.segments.map(\.url) + [listing.initialization?.url].compactMap { $0 }
    #expect(expansion.segmentCount >= listing.segments.count)
    #expect(expansion.urlBytes >= urls.reduce(0) { $0 + $1.absoluteString.utf8.count })
  }

  /// A `SegmentBase` lists what its `sidx` holds: at most a reference per 12 bytes of its
  /// index range, all sharing the one URL.
  @Test func anIndexRangeBoundsItsSegmentsByItsLength() throws {
    let mpd = try MPDParser.parse(
      "<MPD type=\"static\" mediaPresentationDuration=\"PT20S\"><Period><AdaptationSet>"
        + "<Representation id=\"v\" bandwidth=\"1\"><BaseURL>f.mp4</BaseURL>"
        + "<SegmentBase indexRange=\"100-1299\"/></Representation></AdaptationSet></Period></MPD>")
    let expansion = try SegmentResolver().expansion(for: first, in: mpd, manifestURL: base)
    #expect(expansion.segmentCount == 100)
  }
}
