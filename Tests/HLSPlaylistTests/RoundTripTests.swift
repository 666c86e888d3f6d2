import HLSPlaylist
import TestTiming
import Testing

@Suite(.timed) struct RoundTripTests {
  @Test(arguments: Fixtures.all.map(\.name))
  func writingAndParsingAgainGivesTheSamePlaylist(_ name: String) throws {
    let text = try #require(Fixtures.all.first { $0.name == name }?.text)
    let parsed = try PlaylistParser.parse(text)
    let written = PlaylistWriter.write(parsed)
    #expect(try PlaylistParser.parse(written) == parsed)
    #expect(PlaylistWriter.write(try PlaylistParser.parse(written)) == written)
  }

  @Test func writesExplicitOffsetsAndTheMapOnce() throws {
    let text = PlaylistWriter.write(try parseMedia(Fixtures.fmp4SingleFile))
    #expect(
      text == """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:1
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
        #EXTINF:6.006,
        #EXT-X-BYTERANGE:1043280@720
        main.mp4
        #EXTINF:6.006,
        #EXT-X-BYTERANGE:989012@1044000
        main.mp4
        #EXTINF:6.006,
        #EXT-X-BYTERANGE:1002345@2033012
        main.mp4
        #EXTINF:2.5025,
        #EXT-X-BYTERANGE:412001@3035357
        main.mp4
        #EXT-X-ENDLIST

        """)
  }

  @Test func writesMasterAttributesQuotedOrNotByType() throws {
    let text = PlaylistWriter.write(try parseMaster(Fixtures.appleMaster))
    #expect(
      text.contains(
        #"#EXT-X-STREAM-INF:BANDWIDTH=6214307,AVERAGE-BANDWIDTH=5468350,CODECS="avc1.64002a,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=59.94,AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc",HDCP-LEVEL=TYPE-0"#
          + "\nv1080/prog.m3u8\n"))
    let forcedSubtitles =
      #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français (forced)",LANGUAGE="fr","#
      + #"ASSOC-LANGUAGE="fr-CA",AUTOSELECT=YES,FORCED=YES,URI="subs/fr-forced/prog.m3u8""#
    #expect(text.contains("\n" + forcedSubtitles + "\n"))
  }

  @Test(arguments: [
    0.0, 1, 6.006, 9.97667, 0.1 + 0.2, 1e-7, 123_456_789.125, 1e21, .leastNonzeroMagnitude,
  ])
  func writesDurationsThatReadBackExactly(_ duration: Double) throws {
    var media = MediaPlaylist(targetDuration: 10)
    media.segments = [Segment(uri: "a.ts", duration: duration)]
    let text = PlaylistWriter.write(media)
    #expect(!text.contains("e"))
    #expect(try parseMedia(text).segments[0].duration == duration)
  }

  @Test func writesAPlaylistBuiltByHand() throws {
    let key = Key(method: .aes128, uri: "key.bin", iv: Array(0..<16))
    var media = MediaPlaylist(
      targetDuration: 4, mediaSequence: 10, playlistType: .vod, hasEndList: true)
    media.segments = [
      Segment(uri: "a.ts", duration: 4, key: key, mediaSequenceNumber: 10),
      Segment(uri: "b.ts", duration: 3.5, title: "B", key: key, mediaSequenceNumber: 11),
    ]
    let text = PlaylistWriter.write(media)
    #expect(text.contains("IV=0x000102030405060708090A0B0C0D0E0F"))
    #expect(text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY") }.count == 1)
    #expect(try parseMedia(text) == media)
  }
}

@Suite(.timed) struct RoundTripRegressionTests {
  /// Found by the fuzzer: a quoted value starting with a combining mark lost that mark,
  /// because the quote and the mark form one Character and the quotes were dropped as
  /// Characters, not bytes.
  @Test func keepsACombiningMarkRightAfterAQuote() throws {
    let master = try parseMaster(
      "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"\u{06DA}x\u{301}\",LANGUAGE=\u{0301}en\n"
    )
    #expect(master.renditions[0].name.unicodeScalars.first == "\u{06DA}")
    #expect(master.renditions[0].language?.unicodeScalars.first == "\u{0301}")
    #expect(try PlaylistParser.parse(PlaylistWriter.write(master)) == .master(master))
  }
}
