import HLSPlaylist
import TestTiming
import Testing

/// Pins issue 11, item 14: `QUERYPARAM` (how a token in a playlist's URL reaches its segment
/// URLs) and `IMPORT` (a media playlist using a variable of the multivariant playlist) were
/// not supported; the caller passes where the playlist came from in a `PlaylistContext`.
@Suite(.timed) struct VariableContextTests {
  func parsedMedia(_ text: String, _ context: PlaylistContext) throws -> MediaPlaylist {
    guard case .media(let media) = try PlaylistParser.parse(text, context: context).playlist
    else {
      Issue.record("expected a media playlist")
      return MediaPlaylist(targetDuration: 0)
    }
    return media
  }

  @Test func queryParamAndImportFillSegmentAndKeyURIs() throws {
    let media = try parsedMedia(Fixtures.variablesImported, Fixtures.context)
    #expect(
      media.segments.map(\.uri) == [
        "https://cdn.example.com/show/seg0.ts?token=abc123",
        "https://cdn.example.com/show/seg1.ts?token=abc123",
      ])
    #expect(media.segments[0].key?.uri == "https://cdn.example.com/show/key.bin?token=abc123")
  }

  @Test func aMultivariantPlaylistHandsItsVariablesToItsMediaPlaylists() throws {
    let parsed = try PlaylistParser.parse(Fixtures.variablesQueryMaster, context: Fixtures.context)
    #expect(parsed.variables == ["token": "abc123", "cdn": "https://cdn.example.com/show"])
    guard case .master(let master) = parsed.playlist else {
      Issue.record("expected a master playlist")
      return
    }
    #expect(master.variants.map(\.uri) == ["https://cdn.example.com/show/low.m3u8?token=abc123"])
    let media = try parsedMedia(
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:IMPORT=\"token\"\n#EXTINF:4,\na.ts?t={$token}\n",
      PlaylistContext(uri: master.variants[0].uri, multivariantVariables: parsed.variables))
    #expect(media.segments.map(\.uri) == ["a.ts?t=abc123"])
  }

  @Test func queryParamTakesTheValueAsWrittenAndIgnoresTheFragment() throws {
    let text =
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:QUERYPARAM=\"t\"\n"
      + "#EXT-X-DEFINE:QUERYPARAM=\"flag\"\n#EXTINF:4,\na.ts?t={$t}&f={$flag}\n"
    let media = try parsedMedia(
      text, PlaylistContext(uri: "https://x.example/p.m3u8?a=1&t=a%2Bb%3D&flag#t=frag"))
    #expect(media.segments[0].uri == "a.ts?t=a%2Bb%3D&f=")
  }

  @Test func aQueryParameterThatIsMissingFails() {
    let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:QUERYPARAM=\"token\"\n"
    for uri in [
      "https://x.example/p.m3u8", "https://x.example/p.m3u8?tokens=1",
      "https://x.example/p.m3u8#?token=1",
    ] {
      #expect(throws: PlaylistError.self, "\(uri)") {
        try PlaylistParser.parse(text, context: PlaylistContext(uri: uri))
      }
    }
  }

  @Test func importOfAVariableTheMultivariantPlaylistLacksFails() {
    let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n\n#EXT-X-DEFINE:IMPORT=\"auth\"\n"
    do {
      _ = try PlaylistParser.parse(
        text, context: PlaylistContext(multivariantVariables: ["other": "1"]))
      Issue.record("parsed")
    } catch {
      #expect(error.line == 4)
      #expect(error.message.contains("auth"))
    }
  }

  @Test func aQueryValueThatNoQuotedStringCanCarryFails() {
    let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:QUERYPARAM=\"q\"\n"
    #expect(throws: PlaylistError.self) {
      try PlaylistParser.parse(text, context: PlaylistContext(uri: "https://x/p?q=a\"b"))
    }
  }

  /// The offline playlists we write must play without the context they were fetched in:
  /// written, a playlist parsed with its context reads back the same with none.
  @Test(arguments: Fixtures.withContext.map(\.name))
  func writtenItNeedsNoContextToReadBackTheSame(_ name: String) throws {
    let text = try #require(Fixtures.withContext.first { $0.name == name }?.text)
    let parsed = try PlaylistParser.parse(text, context: Fixtures.context).playlist
    let written = PlaylistWriter.write(parsed)
    #expect(!written.contains("EXT-X-DEFINE"))
    #expect(try PlaylistParser.parse(written) == parsed)
    #expect(PlaylistWriter.write(try PlaylistParser.parse(written)) == written)
  }
}
