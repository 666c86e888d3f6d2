import OfflineKit
import Testing

@testable import OfflineCLI

/// How `--variant`, `--audio` and `--subtitles` read their values (moved here from the
/// library with the parsing, issue 12: CLI-only symbols live in the CLI).
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
