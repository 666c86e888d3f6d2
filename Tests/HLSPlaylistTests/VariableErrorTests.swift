import HLSPlaylist
import TestTiming
import Testing

/// Pins issue 11, item 14: playlists that RFC 8216bis §4.3 and §4.4.2.3 say a client MUST
/// fail to parse (an undefined variable, a use before the definition, `IMPORT` without a
/// multivariant playlist, a name defined twice) were accepted.
@Suite(.timed) struct VariableErrorTests {
  /// A media playlist header; the line after it is line 3.
  let header = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n"

  @Test func anUndefinedVariableInAURIFailsNamingTheLineAndTheVariable() {
    let error = parseError(header + "#EXTINF:10,\nprog_index.m3u8{$auth}\n")
    #expect(error?.line == 4)
    #expect(error?.message.contains("auth") == true)
    #expect(error?.message.contains("EXT-X-DEFINE") == true)
  }

  @Test func aVariableUsedBeforeItsDefinitionFails() {
    let text =
      header + "#EXTINF:10,\n{$base}/a.ts\n#EXT-X-DEFINE:NAME=\"base\",VALUE=\"https://x\"\n"
    #expect(parseError(text)?.line == 4)
  }

  @Test func anUndefinedVariableInAQuotedAttributeFails() {
    #expect(
      parseError(header + "#EXT-X-KEY:METHOD=AES-128,URI=\"{$k}\"\n#EXTINF:1,\na\n")?.line == 3)
    let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"{$group}\"\nlow.m3u8\n"
    #expect(parseError(master)?.line == 2)
    let unknownTag =
      "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"t\",URI=\"{$u}\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na\n"
    #expect(parseError(unknownTag)?.line == 2)
  }

  @Test func anUndefinedVariableInAHexadecimalValueFails() {
    let text = header + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x{$iv}\n#EXTINF:1,\na\n"
    #expect(parseError(text)?.line == 3)
  }

  @Test func aNameDefinedTwiceFails() {
    let twice =
      header + "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n"
    let error = parseError(twice)
    #expect(error?.line == 5)
    #expect(error?.message.contains("\"a\"") == true)
    #expect(error?.message.contains("line 3") == true)
  }

  @Test func importWithoutAMultivariantPlaylistFails() {
    let error = parseError(header + "#EXT-X-DEFINE:IMPORT=\"auth\"\n")
    #expect(error?.line == 3)
    #expect(error?.message.contains("IMPORT") == true)
  }

  @Test func importInAMultivariantPlaylistFails() {
    let text = "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"a\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n"
    #expect(parseError(text)?.line == 2)
  }

  @Test func queryParamWithoutThePlaylistsURIFails() {
    let error = parseError(header + "#EXT-X-DEFINE:QUERYPARAM=\"token\"\n")
    #expect(error?.line == 3)
    #expect(error?.message.contains("QUERYPARAM") == true)
  }

  @Test(arguments: [
    "", "VALUE=\"1\"", "NAME=\"a\"", "NAME=\"a\",IMPORT=\"b\",VALUE=\"1\"",
    "NAME=\"a\",QUERYPARAM=\"a\",VALUE=\"1\"", "NAME=\"a b\",VALUE=\"1\"", "NAME=\"\",VALUE=\"1\"",
    "NAME=a,VALUE=\"1\"", "NAME=\"a\",VALUE=1",
    "NAME=\"{$b}\",VALUE=\"1\"", "IMPORT=\"\"", "QUERYPARAM=\"a.b\"",
  ])
  func aMalformedDefinitionFailsNamingItsLine(_ attributes: String) {
    let error = parseError(header + "#EXT-X-DEFINE:\(attributes)\n")
    #expect(error?.line == 3, "\(attributes)")
    #expect(error?.message.contains("EXT-X-DEFINE") == true, "\(error?.message ?? "")")
  }

  @Test func aValueThatWouldMakeANewReferenceFails() {
    // Written resolved, `{$b}` would be read back as a reference: refused, not half-kept.
    let nested = header + "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"{$b}\"\n#EXTINF:1,\n{$a}.ts\n"
    #expect(parseError(nested)?.line == 5)
    let spliced =
      header + "#EXT-X-DEFINE:NAME=\"open\",VALUE=\"{$\"\n#EXTINF:1,\n{$open}b}.ts\n"
    #expect(parseError(spliced)?.line == 5)
  }

  @Test func aHexadecimalValueThatIsNotHexadecimalAfterSubstitutionFails() {
    let text =
      header
      + "#EXT-X-DEFINE:NAME=\"iv\",VALUE=\"00,X=1\"\n"
      + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",X-ID=0x{$iv}\n#EXTINF:1,\na\n"
    #expect(parseError(text)?.line == 4)
  }

  @Test(arguments: ["", " ", "#EXT-X-ENDLIST"])
  func aURILineThatSubstitutionEmptiesOrTurnsIntoATagFails(_ value: String) {
    let text = header + "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(value)\"\n#EXTINF:1,\n{$v}\n"
    #expect(parseError(text)?.line == 5)
  }

  /// A short playlist that references a long value many times must not grow without bound.
  @Test func substitutionPastTheSizeLimitFails() {
    let value = String(repeating: "a", count: 1 << 20)
    let references = String(repeating: "{$v}", count: 65)
    let text =
      header + "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(value)\"\n#EXTINF:1,\n\(references)\n"
    let error = parseError(text)
    #expect(error?.line == 5)
    #expect(error?.message.contains("64 MiB") == true, "\(error?.message ?? "")")
  }

  @Test func errorsNeverShowAVariablesValue() {
    let text =
      header + "#EXT-X-DEFINE:NAME=\"secret\",VALUE=\"s3cr3t-token\"\n"
      + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x{$secret}\n#EXTINF:1,\na\n"
    let error = parseError(text)
    #expect(error?.line == 4)
    #expect(error?.message.contains("s3cr3t") == false, "\(error?.message ?? "")")
  }
}
