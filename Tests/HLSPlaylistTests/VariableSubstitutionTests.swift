import HLSPlaylist
import TestTiming
import Testing

/// Pins issue 11, item 14: `EXT-X-DEFINE` (RFC 8216bis §4.4.2.3) was neither substituted nor
/// refused, so `{$name}` stayed in URIs (a 404 for `…prog_index.m3u8%7B$auth%7D`).
@Suite(.timed) struct VariableSubstitutionTests {
  @Test func aMultivariantPlaylistGetsItsVariablesInURIsAndQuotedAttributes() throws {
    let master = try parseMaster(Fixtures.variablesMaster)
    #expect(master.variants.map(\.uri) == ["https://cdn.example.com/show/video/720p.m3u8"])
    #expect(master.variants[0].codecs == "avc1.64001f,mp4a.40.2")
    #expect(master.variants[0].audioGroup == "aac")
    #expect(master.renditions.map(\.groupID) == ["aac"])
    #expect(master.renditions.map(\.uri) == ["https://cdn.example.com/show/audio/en.m3u8"])
    #expect(master.iFrameVariants.map(\.codecs) == ["avc1.64001f"])
    #expect(
      master.iFrameVariants.map(\.uri) == ["https://cdn.example.com/show/video/720p-iframes.m3u8"])
    #expect(
      master.unknownTags == [
        #"#EXT-X-SESSION-DATA:DATA-ID="com.example.title",URI="https://cdn.example.com/show/title.json""#
      ])
  }

  @Test func aMediaPlaylistGetsItsVariablesInSegmentsKeysMapsAndTheIV() throws {
    let media = try parseMedia(Fixtures.variablesMedia)
    let base = "https://media.example.com/vod/1234"
    #expect(media.segments.map(\.uri) == ["\(base)/seg0.m4s", "\(base)/\(base)/seg1.m4s"])
    #expect(
      media.segments[0].map
        == MapSection(uri: "\(base)/init.mp4", byteRange: .init(length: 720, offset: 0)))
    #expect(media.segments[0].key?.uri == "\(base)/key?kid=7")
    #expect(
      media.segments[0].key?.iv == [
        0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD,
        0xEF,
      ])
    #expect(media.unknownTags.isEmpty, "EXT-X-DEFINE is read, not kept as an unknown tag")
  }

  @Test func theWriterEmitsResolvedValuesAndNoDefinitions() throws {
    for text in [Fixtures.variablesMaster, Fixtures.variablesMedia] {
      let parsed = try PlaylistParser.parse(text)
      let written = PlaylistWriter.write(parsed)
      #expect(!written.contains("EXT-X-DEFINE"))
      #expect(!written.contains("{$"))
      #expect(try PlaylistParser.parse(written) == parsed)
    }
  }

  @Test func onlyURIsQuotedStringsAndHexadecimalValuesAreSubstituted() throws {
    let media = try parseMedia(
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:4
      #EXT-X-DEFINE:NAME="x",VALUE="1"
      #EXT-X-CUE-OUT:{$x}
      #EXTINF:4,{$x}
      a{$x}.ts
      """)
    #expect(media.segments[0].title == "{$x}", "a title is not a quoted string")
    #expect(media.unknownTags == ["#EXT-X-CUE-OUT:{$x}"])
    #expect(media.segments[0].uri == "a1.ts")
  }

  @Test(arguments: ["{$}", "{$a b}", "{$a", "$a}", "{ $a}", "{$a.b}"])
  func textThatIsNotAVariableReferenceIsLeftAlone(_ text: String) throws {
    let media = try parseMedia(
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXTINF:4,\nx\(text).ts\n"
    )
    #expect(media.segments[0].uri == "x\(text).ts")
  }

  @Test func definitionsAreNotSubstitutedAndNamesAreCaseSensitive() throws {
    let media = try parseMedia(
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:4
      #EXT-X-DEFINE:NAME="a",VALUE="lower"
      #EXT-X-DEFINE:NAME="A",VALUE="upper"
      #EXT-X-DEFINE:NAME="b",VALUE="b-{ $a}"
      #EXTINF:4,
      {$a}/{$A}/{$b}.ts
      """)
    #expect(media.segments[0].uri == "lower/upper/b-{ $a}.ts")
  }

  @Test func anEmptyValueIsAllowed() throws {
    let media = try parseMedia(
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\"\n#EXTINF:4,\na{$v}.ts\n"
    )
    #expect(media.segments[0].uri == "a.ts")
  }
}
