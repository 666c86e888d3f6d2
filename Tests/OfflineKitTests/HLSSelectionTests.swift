import Foundation
import HLSPlaylist
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// What a master playlist's selection could not include is said, as a value (issue 11,
/// item 14): the library reports ``StreamWarning``s, the application shows them.
@Suite(.timed) struct HLSSelectionTests {
  func master(_ text: String) throws -> MasterPlaylist {
    guard case .master(let master) = try PlaylistParser.parse(text) else {
      throw TestSupportError.unexpectedOutput(command: "parse", output: text)
    }
    return master
  }

  /// Pins issue 14: a variant naming AUDIO and SUBTITLES groups that do not exist gave the
  /// video alone and no word.
  @Test func groupsTheMasterDoesNotDefineAreWarnedAbout() throws {
    let master = try master(
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"a\",SUBTITLES=\"s\"\nv.m3u8\n")
    let selection = try #require(
      HLSSelection.choose(from: master, options: StreamConfiguration(audio: .all, subtitles: .all)))
    #expect(selection.audio.isEmpty && selection.subtitles.isEmpty)
    #expect(
      selection.warnings == [
        .missingRenditionGroup(type: .audio, group: "a"),
        .missingRenditionGroup(type: .subtitles, group: "s"),
      ])
    #expect(selection.warnings[0].description.contains("audio group \"a\""))
    let quiet = try #require(
      HLSSelection.choose(
        from: master, options: StreamConfiguration(audio: .default, subtitles: .none)))
    #expect(quiet.warnings == [.missingRenditionGroup(type: .audio, group: "a")])
  }

  @Test func aLanguageNoRenditionHasIsWarnedAboutWithTheOneTaken() throws {
    let master = try master(
      "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"English\",LANGUAGE=\"en\","
        + "DEFAULT=YES,URI=\"en.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"a\"\nv.m3u8\n")
    let selection = try #require(
      HLSSelection.choose(from: master, options: StreamConfiguration(audio: .languages(["de"]))))
    #expect(selection.audio.map(\.language) == ["en"])
    #expect(
      selection.warnings == [.languageNotFound(type: .audio, wanted: ["de"], taken: "en")])
    let found = try #require(
      HLSSelection.choose(from: master, options: StreamConfiguration(audio: .languages(["en"]))))
    #expect(found.warnings.isEmpty)
  }

  /// The warnings reach the outcome of a download, which still completes with the video.
  @Test func theOutcomeOfADownloadCarriesTheWarnings() async throws {
    let stream = try FaultHLSTests.Stream(encrypted: false)
    stream.setPlaylist(
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"gone\"\nmedia.m3u8\n", at: "/v/master.m3u8")
    let outcome = try await stream.download("/v/master.m3u8").run()
    #expect(outcome.warnings == [.missingRenditionGroup(type: .audio, group: "gone")])
    #expect(outcome.segments == FaultHLSTests.segmentCount)
  }
}
