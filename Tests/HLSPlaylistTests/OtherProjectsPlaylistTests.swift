import HLSPlaylist
import TestTiming
import Testing

/// Pins issue 36, item 15: details of other projects' test playlists (hls.js's
/// `m3u8-parser.ts`), written again here; none of their files is copied.
@Suite(.timed) struct OtherProjectsPlaylistTests {
  /// hls.js's variable test: `IV=0x0000000{$two}` is a hexadecimal-sequence with a variable
  /// reference (RFC 8216bis §4.3), eight digits once substituted. It was refused because an
  /// IV had to be written with exactly 32 digits; RFC 8216 §4.3.2.4 makes it a 128-bit
  /// unsigned integer, so a shorter sequence is the same number with zeros on the left.
  @Test func aShortIVWithAVariableReferenceIsTheSame128BitNumber() throws {
    let media = try parseMedia(
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:5
      #EXT-X-DEFINE:NAME="two",VALUE="2"
      #EXT-X-KEY:METHOD=AES-128,URI="k.key",IV=0x0000000{$two}
      #EXTINF:4,
      a.ts
      """)
    #expect(media.segments[0].key?.iv == [UInt8](repeating: 0, count: 15) + [2])
  }

  @Test func aSessionKeyWithAShortIVInAMultivariantPlaylistParses() throws {
    let master = try parseMaster(
      """
      #EXTM3U
      #EXT-X-DEFINE:NAME="two",VALUE="2"
      #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery",IV=0x0000000{$two}
      #EXT-X-STREAM-INF:BANDWIDTH=836280
      v/{$two}.m3u8
      """)
    #expect(master.variants.map(\.uri) == ["v/2.m3u8"])
  }

  /// An IV whose value needs more than 128 bits is still refused, naming its line; leading
  /// zeros past 32 digits do not change the number.
  @Test func anIVPast128BitsIsRefusedAndLeadingZerosAreNot() throws {
    let tooLong = "0x1" + String(repeating: "0", count: 32)
    let error = parseError(
      "#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=\(tooLong)\n")
    #expect(error?.line == 3)
    #expect(error?.message.contains("128") == true, "\(error?.message ?? "")")
    let padded = "0x00" + String(repeating: "0", count: 31) + "7"
    let media = try parseMedia(
      "#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=\(padded)\n"
        + "#EXTINF:4,\na.ts\n")
    #expect(media.segments[0].key?.iv == [UInt8](repeating: 0, count: 15) + [7])
  }

  /// RFC 8216bis §4.4.5.2: a playlist carries `EXT-X-SKIP` at most once. A second one was
  /// accepted (kept as an unknown tag); it is an error naming its line and the first one's.
  @Test func aSecondSkipTagIsAnErrorNamingItsLine() {
    let error = parseError(
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:5
      #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
      #EXT-X-SKIP:SKIPPED-SEGMENTS=3
      #EXT-X-SKIP:SKIPPED-SEGMENTS=2
      #EXTINF:4,
      a.ts
      """)
    #expect(error?.line == 5)
    #expect(error?.message.contains("EXT-X-SKIP") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("line 4") == true, "\(error?.message ?? "")")
  }
}
