import HLSPlaylist
import TestTiming
import Testing

@Suite(.timed) struct MediaPlaylistTests {
  @Test func resolvesImplicitByteRangeOffsetsOfASingleFMP4File() throws {
    let media = try parseMedia(Fixtures.fmp4SingleFile)
    #expect(media.version == 7)
    #expect(media.targetDuration == 6)
    #expect(media.playlistType == .vod)
    #expect(media.hasEndList)
    #expect(media.independentSegments)
    let ranges = media.segments.map(\.byteRange)
    #expect(
      ranges == [
        ByteRange(length: 1_043_280, offset: 720),
        ByteRange(length: 989_012, offset: 1_044_000),
        ByteRange(length: 1_002_345, offset: 2_033_012),
        ByteRange(length: 412_001, offset: 3_035_357),
      ])
    #expect(ranges.last??.end == 3_447_358)
    let map = MapSection(uri: "main.mp4", byteRange: ByteRange(length: 720, offset: 0))
    #expect(media.segments.allSatisfy { $0.map == map && $0.uri == "main.mp4" })
  }

  @Test func numbersSegmentsFromTheMediaSequence() throws {
    let media = try parseMedia(Fixtures.fmp4SingleFile)
    #expect(media.mediaSequence == 1)
    #expect(media.segments.map(\.mediaSequenceNumber) == [1, 2, 3, 4])
    #expect(try parseMedia(Fixtures.eventLive).segments.map(\.mediaSequenceNumber) == [0, 1, 2])
  }

  @Test func sumsDurations() throws {
    let media = try parseMedia(Fixtures.fmp4SingleFile)
    #expect(abs(media.totalDuration - 20.5205) < 1e-9)
    #expect(media.segments.map(\.duration) == [6.006, 6.006, 6.006, 2.5025])
  }

  @Test func marksDiscontinuitiesAndProgramDates() throws {
    let media = try parseMedia(Fixtures.discontinuityAndDates)
    #expect(media.discontinuitySequence == 3)
    #expect(media.segments.map(\.discontinuity) == [false, false, true, false, true, false])
    #expect(media.segments[0].programDateTime == "2024-05-01T10:00:00.000Z")
    #expect(media.segments[1].programDateTime == nil)
    #expect(media.segments[2].programDateTime == "2024-05-01T10:00:12.000Z")
    #expect(media.segments[0].title == "Opening")
    #expect(media.segments[1].title == nil)
    #expect(media.segments[2].title == "Ad, part 1")
    #expect(media.segments.last?.duration == 0.46667)
  }

  @Test func keepsUnknownTagsWhereTheyStood() throws {
    let media = try parseMedia(Fixtures.discontinuityAndDates)
    #expect(media.unknownTags == ["#EXT-X-START:TIME-OFFSET=12.5,PRECISE=YES"])
    #expect(media.segments[2].unknownTags == ["#EXT-X-CUE-OUT:DURATION=12"])
    #expect(media.segments[3].unknownTags == ["#EXT-X-GAP"])
    #expect(media.segments[4].unknownTags == ["#EXT-X-CUE-IN"])
    #expect(media.segments[5].unknownTags.isEmpty)
    #expect(
      media.trailingTags == [#"#EXT-X-DATERANGE:ID="end",START-DATE="2024-05-01T10:00:30.466Z""#])
  }

  @Test func writesUnknownTagsBackVerbatim() throws {
    let text = PlaylistWriter.write(try parseMedia(Fixtures.discontinuityAndDates))
    for tag in [
      "#EXT-X-START:TIME-OFFSET=12.5,PRECISE=YES", "#EXT-X-CUE-OUT:DURATION=12", "#EXT-X-GAP",
      "#EXT-X-CUE-IN", #"#EXT-X-DATERANGE:ID="end",START-DATE="2024-05-01T10:00:30.466Z""#,
    ] {
      #expect(text.contains("\n" + tag + "\n"), "missing \(tag)")
    }
    #expect(!text.contains("a comment"))
  }

  @Test func readsAnEventWithoutEndList() throws {
    let media = try parseMedia(Fixtures.eventLive)
    #expect(media.playlistType == .event)
    #expect(!media.hasEndList)
    #expect(media.segments.count == 3)
  }

  @Test func readsIFrameOnlyRangesOfSeveralFiles() throws {
    let media = try parseMedia(Fixtures.iFramesOnly)
    #expect(media.iFramesOnly)
    #expect(
      media.segments.map(\.byteRange) == [
        ByteRange(length: 9400, offset: 376), ByteRange(length: 7144, offset: 1_062_352),
        ByteRange(length: 10152, offset: 376), ByteRange(length: 8272, offset: 10528),
      ])
  }

  @Test func acceptsCRLFAndAByteOrderMark() throws {
    let media = try parseMedia(Fixtures.crlfWithByteOrderMark)
    #expect(media.segments.map(\.uri) == ["segment 1.ts", "segment2.ts"])
    #expect(media.segments[0].title == "Première")
    #expect(media.segments[0].duration == 9.97667)
    #expect(media.hasEndList)
  }

  @Test func readsASubtitlesPlaylist() throws {
    let media = try parseMedia(Fixtures.subtitlesWebVTT)
    #expect(media.segments.map(\.duration) == [30, 30, 12.3456789])
    #expect(media.segments.allSatisfy { $0.key == nil && $0.map == nil && $0.byteRange == nil })
  }

  @Test(arguments: [("10", 10.0), ("10.", 10), (".5", 0.5), ("0009.50", 9.5), ("2.002 ", 2.002)])
  func acceptsDecimalDurationForms(_ text: String, _ expected: Double) throws {
    let media = try parseMedia("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:\(text),x\na.ts\n")
    #expect(media.segments[0].duration == expected)
  }

  @Test func acceptsAnEXTINFWithoutTheComma() throws {
    let media = try parseMedia("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:8\na.ts\n")
    #expect(media.segments[0].duration == 8)
    #expect(media.segments[0].title == nil)
  }

  @Test func skipsCommentsAndBlankLines() throws {
    let media = try parseMedia(
      "#EXTM3U\n# made by hand\n\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n#not a tag\n\na.ts\n")
    #expect(media.segments.map(\.uri) == ["a.ts"])
    #expect(media.unknownTags.isEmpty && media.segments[0].unknownTags.isEmpty)
  }

  @Test func treatsAPlaylistWithoutMasterTagsAsMedia() throws {
    let media = try parseMedia("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-ENDLIST\n")
    #expect(media.segments.isEmpty)
    #expect(media.totalDuration == 0)
  }
}

@Suite(.timed) struct ByteRangeTests {
  @Test func givesAnHTTPRangeWithAnInclusiveEnd() {
    #expect(ByteRange(length: 720, offset: 0).httpRangeValue == "bytes=0-719")
    #expect(ByteRange(length: 989_012, offset: 1_044_000).httpRangeValue == "bytes=1044000-2033011")
    #expect(ByteRange(length: 0, offset: 10).httpRangeValue == nil)
    #expect(ByteRange(length: 2, offset: .max).httpRangeValue == nil)
  }
}
