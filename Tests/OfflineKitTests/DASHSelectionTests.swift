import DASHManifest
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 17, item 2: HLS's choices (`--variant`, `--audio`, `--subtitles`) applied to each
/// AdaptationSet of each Period.
@Suite(.timed)
struct DASHSelectionTests {
  static let manifest = """
    <MPD type="static" mediaPresentationDuration="PT4S">
      <Period>
        <AdaptationSet contentType="video"><SegmentTemplate media="v$Number$.m4s" duration="2"/>
          <Representation id="v-mid" bandwidth="600000" width="640" height="360"/>
          <Representation id="v-low" bandwidth="200000" width="320" height="180"/>
          <Representation id="v-high" bandwidth="1200000" width="1280" height="720"/>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4" lang="en"><SegmentTemplate media="a$Number$.m4s" duration="2"/>
          <Representation id="en-hi" bandwidth="128000"/><Representation id="en-lo" bandwidth="64000"/>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4" lang="fr">
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
          <SegmentTemplate media="f$Number$.m4s" duration="2"/>
          <Representation id="fr" bandwidth="96000"/>
        </AdaptationSet>
        <AdaptationSet contentType="text" mimeType="text/vtt" lang="de">
          <Representation id="sub-de" bandwidth="256"><BaseURL>de.vtt</BaseURL></Representation>
        </AdaptationSet>
        <AdaptationSet contentType="image" mimeType="image/jpeg">
          <Representation id="thumbs" bandwidth="1000"><BaseURL>t.jpg</BaseURL></Representation>
        </AdaptationSet>
      </Period>
    </MPD>
    """

  func chosen(_ options: StreamConfiguration) throws -> [String] {
    let mpd = try MPDParser.parse(Self.manifest)
    return DASHSelection.choose(from: mpd, options: options).paths.map {
      mpd.representation(at: $0)!.id
    }
  }

  @Test func theDefaultsTakeTheHighestVideoAndTheMainAudioWithoutSubtitles() throws {
    #expect(try chosen(StreamConfiguration()) == ["v-high", "fr"])
  }

  @Test func variantChoosesInsideEachVideoAdaptationSet() throws {
    #expect(try chosen(StreamConfiguration(variant: .lowest)).first == "v-low")
    #expect(try chosen(StreamConfiguration(variant: .minimumBitrate(500_000))).first == "v-mid")
    #expect(try chosen(StreamConfiguration(variant: .minimumBitrate(5_000_000))).first == "v-high")
  }

  @Test func audioAndSubtitlesChooseAdaptationSetsByLanguage() throws {
    #expect(
      try chosen(StreamConfiguration(audio: .languages(["en"]), subtitles: .all))
        == ["v-high", "en-hi", "sub-de"])
    #expect(
      try chosen(StreamConfiguration(variant: .lowest, audio: .all, subtitles: .languages(["de"])))
        == ["v-low", "en-lo", "fr", "sub-de"])
    #expect(try chosen(StreamConfiguration(audio: .none)) == ["v-high"])
  }

  @Test func aLanguageNoAdaptationSetHasIsWarnedAboutWithTheOneTaken() throws {
    let mpd = try MPDParser.parse(Self.manifest)
    let selection = DASHSelection.choose(
      from: mpd, options: StreamConfiguration(audio: .languages(["ja"])))
    #expect(selection.warnings == [.languageNotFound(type: .audio, wanted: ["ja"], taken: "fr")])
  }

  @Test func eachPeriodIsChosenOnItsOwn() throws {
    let two = Self.manifest.replacingOccurrences(
      of: "</Period>",
      with: "</Period><Period duration=\"PT4S\">"
        + "<AdaptationSet contentType=\"video\"><SegmentTemplate media=\"w$Number$.m4s\" duration=\"2\"/>"
        + "<Representation id=\"w\" bandwidth=\"1\"/></AdaptationSet></Period>")
    let mpd = try MPDParser.parse(two)
    let paths = DASHSelection.choose(from: mpd, options: StreamConfiguration()).paths
    #expect(paths.map(\.period) == [0, 0, 1])
    #expect(mpd.representation(at: paths[2])?.id == "w")
  }
}
