import DASHManifest
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Pins issue 36, item 14: a Representation without `@bandwidth` made the whole manifest
/// refused. It is now unknown: ranked by the choice only when no Representation of its set has
/// a bandwidth (then by resolution), and shown as unknown by `offline info`.
@Suite(.timed)
struct DASHUnknownBandwidthTests {
  static let manifest = """
    <MPD type="static" mediaPresentationDuration="PT4S"><Period>
      <AdaptationSet contentType="video"><SegmentTemplate media="v$RepresentationID$-$Number$.m4s" duration="2"/>
        <Representation id="unknown-1080" width="1920" height="1080"/>
        <Representation id="mid" bandwidth="600000" width="640" height="360"/>
        <Representation id="low" bandwidth="200000" width="320" height="180"/>
      </AdaptationSet>
      <AdaptationSet contentType="video"><SegmentTemplate media="w$RepresentationID$-$Number$.m4s" duration="2"/>
        <Representation id="big" width="1280" height="720"/>
        <Representation id="small" width="320" height="180"/>
        <Representation id="plain"/>
      </AdaptationSet>
    </Period></MPD>
    """

  func chosen(_ variant: StreamConfiguration.VariantChoice) throws -> [String] {
    let mpd = try MPDParser.parse(Self.manifest)
    var options = StreamConfiguration()
    options.variant = variant
    return DASHSelection.choose(from: mpd, options: options).paths.map {
      mpd.periods[$0.period].adaptationSets[$0.adaptationSet].representations[$0.representation].id
    }
  }

  @Test func anUnknownBandwidthIsChosenOnlyWhenNoneInItsSetIsKnown() throws {
    #expect(try chosen(.highest) == ["mid", "big"])
    #expect(try chosen(.lowest) == ["low", "plain"])
    #expect(try chosen(.minimumBitrate(300_000)) == ["mid", "big"])
  }

  @Test func infoShowsAnUnknownBandwidthAsUnknown() throws {
    let info = DASHInfo(try MPDParser.parse(Self.manifest))
    let first = info.periods[0].sets[0].representations
    #expect(first.map(\.id) == ["low", "mid", "unknown-1080"])
    #expect(first.map(\.bandwidth) == [200_000, 600_000, nil])
    #expect(info.text.contains("    bandwidth unknown  1920x1080  id unknown-1080"), "\(info.text)")
    #expect(info.json.contains(#""bandwidth":null,"id":"unknown-1080""#), "\(info.json)")
  }
}
