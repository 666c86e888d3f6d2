import OfflineKit
import TestTiming
import Testing

/// How a variant and renditions are read from text (`--variant`, `--audio`, `--subtitles`,
/// and the service's JSON API).
@Suite(.timed) struct StreamArgumentTests {
  @Test func aVariantIsHighestLowestOrABitrateWithItsUnit() {
    #expect(StreamConfiguration.VariantChoice(argument: "800k") == .minimumBitrate(800_000))
    #expect(StreamConfiguration.VariantChoice(argument: "2M") == .minimumBitrate(2_000_000))
    #expect(StreamConfiguration.VariantChoice(argument: "HIGHEST") == .highest)
    #expect(StreamConfiguration.VariantChoice(argument: "lowest") == .lowest)
    #expect(StreamConfiguration.VariantChoice(argument: "fast") == nil)
  }

  @Test func renditionsAreDefaultAllNoneOrLanguages() {
    #expect(StreamConfiguration.RenditionChoice(argument: "all") == .all)
    #expect(
      StreamConfiguration.RenditionChoice(argument: "none")
        == StreamConfiguration.RenditionChoice.none)
    #expect(StreamConfiguration.RenditionChoice(argument: "en, fr") == .languages(["en", "fr"]))
    #expect(StreamConfiguration.RenditionChoice(argument: " , ") == nil)
  }
}
