import HLSPlaylist
import TestTiming
import Testing

@Suite(.timed) struct PlaylistErrorTests {
  /// A media playlist header; the line after it is line 3.
  let header = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n"

  @Test func describesItselfWithTheLine() {
    #expect(PlaylistError(line: 7, message: "Bad.").description == "line 7: Bad.")
  }

  @Test func rejectsTextWithoutEXTM3U() {
    #expect(parseError("")?.line == 1)
    #expect(parseError("#EXTINF:10,\na.ts\n")?.line == 1)
    #expect(parseError("\n#EXTM3U\n")?.line == 1)
  }

  @Test func rejectsAURIWithoutEXTINF() {
    #expect(parseError(header + "#EXTINF:10,\na.ts\nb.ts\n")?.line == 5)
  }

  @Test func rejectsAnEXTINFWithoutAURI() {
    #expect(parseError(header + "#EXTINF:10,\na.ts\n#EXTINF:10,\n#EXT-X-ENDLIST\n")?.line == 5)
  }

  @Test(arguments: ["", "abc,", "-1,", "1e3,", "inf,", "1.2.3,", "1 0,", ".", "1e400"])
  func rejectsABadDuration(_ value: String) {
    let error = parseError(header + "\n#EXTINF:\(value)\na.ts\n")
    #expect(error?.line == 4)
    #expect(error?.message.contains("EXTINF") == true)
  }

  @Test func rejectsADurationThatOverflowsADouble() {
    let huge = String(repeating: "9", count: 400)
    #expect(parseError(header + "#EXTINF:\(huge),\na.ts\n")?.line == 3)
  }

  @Test func rejectsAStreamInfWithoutBandwidth() {
    let error = parseError("#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"avc1.4d401f\"\nlow.m3u8\n")
    #expect(error?.line == 2)
    #expect(error?.message.contains("BANDWIDTH") == true)
  }

  @Test func rejectsAStreamInfWithoutAFollowingURI() {
    #expect(parseError("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n")?.line == 2)
    let twoTags = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n"
    #expect(parseError(twoTags)?.line == 2)
  }

  @Test func rejectsAnUnterminatedQuotedString() {
    let error = parseError("#EXTM3U\n\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1\nlow.m3u8\n")
    #expect(error?.line == 3)
    #expect(error?.message.contains("unterminated") == true)
  }

  @Test(arguments: [
    "BANDWIDTH", "BANDWIDTH=1,=2", "BANDWIDTH=1,AUDIO=\"a\"b", "BANDWIDTH=1,AUDIO=a\"b\"",
    "BANDWIDTH=1,RESOLUTION=1920", "BANDWIDTH=1,FRAME-RATE=fast", "BANDWIDTH=\"1\"",
  ])
  func rejectsABadAttributeList(_ attributes: String) {
    #expect(parseError("#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\nlow.m3u8\n")?.line == 2)
  }

  @Test(arguments: [
    "IV=0x", "IV=0123456789ABCDEF0123456789ABCDEF", "IV=0x0123456789ABCDEF0123456789ABCDEG",
    "IV=0x0123456789ABCDEF0123456789ABCDEF00", "IV=\"0x0123456789ABCDEF0123456789ABCDEF\"",
  ])
  func rejectsABadIV(_ iv: String) {
    let error = parseError(header + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",\(iv)\n#EXTINF:1,\na.ts\n")
    #expect(error?.line == 3)
  }

  @Test func rejectsAnImplicitOffsetAfterAnotherURI() {
    let text =
      header
      + "#EXTINF:1,\n#EXT-X-BYTERANGE:100@0\na.mp4\n#EXTINF:1,\n#EXT-X-BYTERANGE:100\nb.mp4\n"
    let error = parseError(text)
    #expect(error?.line == 7)
    #expect(error?.message.contains("offset") == true)
  }

  @Test func rejectsAnImplicitOffsetWithoutAPreviousRange() {
    #expect(parseError(header + "#EXTINF:1,\n#EXT-X-BYTERANGE:100\na.mp4\n")?.line == 4)
    let afterWholeFile = header + "#EXTINF:1,\na.mp4\n#EXTINF:1,\n#EXT-X-BYTERANGE:100\na.mp4\n"
    #expect(parseError(afterWholeFile)?.line == 6)
  }

  @Test func rejectsNumbersThatOverflow() {
    let big = "99999999999999999999"
    #expect(parseError("#EXTM3U\n#EXT-X-TARGETDURATION:\(big)\n")?.line == 2)
    #expect(parseError(header + "#EXT-X-MEDIA-SEQUENCE:\(big)\n")?.line == 3)
    #expect(parseError("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(big)\nlow.m3u8\n")?.line == 2)
    #expect(parseError(header + "#EXTINF:1,\n#EXT-X-BYTERANGE:\(big)@0\na.mp4\n")?.line == 4)
    let endOverflows = header + "#EXTINF:1,\n#EXT-X-BYTERANGE:9223372036854775807@1\na.mp4\n"
    #expect(parseError(endOverflows)?.line == 4)
    let numbersOverflow =
      header + "#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXTINF:1,\na\n#EXTINF:1,\nb\n"
    #expect(parseError(numbersOverflow)?.line == 3)
  }

  @Test func rejectsAMediaPlaylistWithoutTargetDuration() {
    let error = parseError("#EXTM3U\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n")
    #expect(error?.line == 1)
    #expect(error?.message.contains("EXT-X-TARGETDURATION") == true)
  }

  @Test func rejectsMediaTagsInAMasterPlaylist() {
    #expect(parseError("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXTINF:1,\n")?.line == 4)
  }

  @Test func rejectsAStrayURIInAMasterPlaylist() {
    #expect(
      parseError("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\"\nfoo.m3u8\n")?.line
        == 3)
  }

  @Test func rejectsBadEnumeratedValues() {
    #expect(parseError(header + "#EXT-X-PLAYLIST-TYPE:LIVE\n")?.line == 3)
    let badType = "#EXTM3U\n#EXT-X-MEDIA:TYPE=TEXT,GROUP-ID=\"a\",NAME=\"x\"\n"
    #expect(parseError(badType)?.line == 2)
    let badFlag = "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",DEFAULT=yes\n"
    #expect(parseError(badFlag)?.line == 2)
  }

  @Test func reportsLineNumbersWithCRLF() {
    #expect(parseError("#EXTM3U\r\n#EXT-X-TARGETDURATION:1\r\n\r\nx.ts\r\n")?.line == 4)
  }

  @Test func rejectsMoreKeyFormatsAtOnceThanTheLimit() {
    var text = header
    for format in 0...16 {
      text += "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\",KEYFORMAT=\"f\(format)\"\n"
    }
    #expect(parseError(text + "#EXTINF:1,\na.ts\n")?.line == 19)
    #expect(
      parseError(header + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n" + "#EXTINF:1,\na.ts\n") == nil)
  }
}
