import OfflineKit
import Testing

/// How a variant and renditions are read from text (`--variant`, `--audio`, `--subtitles`,
/// and the service's JSON API).
@Suite struct StreamArgumentTests {
  @Test func aVariantIsHighestLowestOrABitrateWithItsUnit() {
    #expect(HLSOptions.VariantChoice(argument: "800k") == .minimumBitrate(800_000))
    #expect(HLSOptions.VariantChoice(argument: "2M") == .minimumBitrate(2_000_000))
    #expect(HLSOptions.VariantChoice(argument: "HIGHEST") == .highest)
    #expect(HLSOptions.VariantChoice(argument: "lowest") == .lowest)
    #expect(HLSOptions.VariantChoice(argument: "fast") == nil)
  }

  @Test func renditionsAreDefaultAllNoneOrLanguages() {
    #expect(HLSOptions.RenditionChoice(argument: "all") == .all)
    #expect(HLSOptions.RenditionChoice(argument: "none") == HLSOptions.RenditionChoice.none)
    #expect(HLSOptions.RenditionChoice(argument: "en, fr") == .languages(["en", "fr"]))
    #expect(HLSOptions.RenditionChoice(argument: " , ") == nil)
  }
}
