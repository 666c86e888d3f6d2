import HLSPlaylist
import TestTiming
import Testing

/// Pins issue 11, item 14: a tag that may appear only once (RFC 8216 §4.3.1.2, §4.3.3,
/// §4.3.5) was accepted twice with the last value winning, and an `EXT-X-MEDIA-SEQUENCE`
/// after the first segment renumbered the segments before it (changing implicit AES IVs).
@Suite(.timed) struct RepeatedTagTests {
  @Test(arguments: [
    "#EXT-X-TARGETDURATION:10", "#EXT-X-MEDIA-SEQUENCE:5", "#EXT-X-DISCONTINUITY-SEQUENCE:2",
    "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-ENDLIST", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-VERSION:3",
    "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START:TIME-OFFSET=0",
  ])
  func aMediaPlaylistTagThatMayAppearOnceFailsTheSecondTime(_ tag: String) {
    let text = "#EXTM3U\n\(tag)\n#EXT-X-TARGETDURATION:10\n\(tag)\n#EXTINF:1,\na.ts\n"
    let error = parseError(
      tag.hasPrefix("#EXT-X-TARGETDURATION") ? "#EXTM3U\n\(tag)\n\n\(tag)\n" : text)
    #expect(error?.line == 4, "\(tag)")
    let name = tag.dropFirst().prefix { $0 != ":" }
    #expect(error?.message.contains(name) == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("line 2") == true, "\(error?.message ?? "")")
  }

  @Test func aSecondValueIsRefusedEvenWhenItIsTheSame() {
    #expect(parseError("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-TARGETDURATION:10\n")?.line == 3)
  }

  @Test(arguments: ["#EXT-X-MEDIA-SEQUENCE:7", "#EXT-X-DISCONTINUITY-SEQUENCE:1"])
  func aSequenceNumberAfterTheFirstSegmentFails(_ tag: String) {
    let afterURI = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\na.ts\n\(tag)\n#EXTINF:1,\nb.ts\n"
    let error = parseError(afterURI)
    #expect(error?.line == 5)
    #expect(error?.message.contains("before the first segment") == true)
    let insideTheFirst = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n\(tag)\na.ts\n"
    #expect(parseError(insideTheFirst)?.line == 4)
  }

  @Test func aSequenceNumberBeforeTheFirstSegmentIsFine() throws {
    let media = try parseMedia(
      "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n"
        + "#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:1,\na.ts\n")
    #expect(media.segments.map(\.mediaSequenceNumber) == [7])
  }

  @Test(arguments: [
    "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START:TIME-OFFSET=0",
  ])
  func aMultivariantTagThatMayAppearOnceFailsTheSecondTime(_ tag: String) {
    let text = "#EXTM3U\n\(tag)\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n\(tag)\n"
    #expect(parseError(text)?.line == 5, "\(tag)")
  }

  @Test func twoRenditionsWithOneNameInOneGroupFail() {
    let text = """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",URI="en.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en-GB",URI="gb.m3u8"
      """
    let error = parseError(text)
    #expect(error?.line == 3)
    #expect(error?.message.contains("NAME") == true)
  }

  @Test func oneNameInOtherGroupsOrTypesIsFine() throws {
    let master = try parseMaster(
      """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ac3",NAME="English",URI="en-ac3.m3u8"
      #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="aac",NAME="English",URI="en-subs.m3u8"
      """)
    #expect(master.renditions.count == 3)
  }

  @Test func twoDefaultRenditionsInOneGroupFail() {
    let text = """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,URI="en.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="French",DEFAULT=NO,URI="fr.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="German",DEFAULT=YES,URI="de.m3u8"
      """
    let error = parseError(text)
    #expect(error?.line == 4)
    #expect(error?.message.contains("DEFAULT") == true)
  }
}
