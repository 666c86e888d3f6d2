import HLSPlaylist
import TestTiming
import Testing

@Suite(.timed) struct MasterPlaylistTests {
  @Test func readsHeaderAndKeepsUnknownTags() throws {
    let master = try parseMaster(Fixtures.appleMaster)
    #expect(master.version == 6)
    #expect(master.independentSegments)
    #expect(
      master.unknownTags == [
        #"#EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Big Buck Bunny""#
      ])
  }

  @Test func readsVariantsWithEveryAttribute() throws {
    let master = try parseMaster(Fixtures.appleMaster)
    #expect(master.variants.count == 3)
    let first = master.variants[0]
    #expect(first.uri == "v540/prog.m3u8")
    #expect(first.bandwidth == 2_483_789)
    #expect(first.averageBandwidth == 2_168_183)
    #expect(first.codecs == "avc1.640020,mp4a.40.2")
    #expect(first.resolution == Resolution(width: 960, height: 540))
    #expect(first.frameRate == 60)
    #expect(first.audioGroup == "aac")
    #expect(first.subtitlesGroup == "subs")
    #expect(first.videoGroup == nil)
    #expect(first.closedCaptions == #""cc""#)
    #expect(first.otherAttributes.isEmpty)

    let uhd = master.variants[2]
    #expect(uhd.uri == "https://cdn.example.com/hevc/v2160/prog.m3u8")
    #expect(uhd.frameRate == 23.976)
    #expect(uhd.closedCaptions == "NONE")
    #expect(
      uhd.otherAttributes == [
        Attribute(name: "VIDEO-RANGE", value: "PQ"), Attribute(name: "HDCP-LEVEL", value: "TYPE-1"),
      ])
  }

  @Test func readsAudioSubtitleAndCaptionRenditions() throws {
    let renditions = try parseMaster(Fixtures.appleMaster).renditions
    #expect(
      renditions.map(\.type) == [.audio, .audio, .audio, .subtitles, .subtitles, .closedCaptions])
    let english = renditions[0]
    #expect(english.groupID == "aac")
    #expect(english.name == "English")
    #expect(english.language == "en")
    #expect(english.isDefault && english.autoselect && !english.forced)
    #expect(english.channels == "2")
    #expect(english.uri == "audio/aac/en/prog.m3u8")
    #expect(renditions[1].name == "Français")
    #expect(!renditions[1].isDefault)
    #expect(renditions[2].channels == "16/JOC")
    #expect(renditions[3].characteristics == "public.accessibility.transcribes-spoken-dialog")
    let forced = renditions[4]
    #expect(forced.forced && !forced.isDefault)
    #expect(forced.assocLanguage == "fr-CA")
    let captions = renditions[5]
    #expect(captions.instreamID == "CC1")
    #expect(captions.uri == nil)
  }

  @Test func readsIFrameVariants() throws {
    let iFrames = try parseMaster(Fixtures.appleMaster).iFrameVariants
    #expect(iFrames.count == 2)
    #expect(iFrames[0].uri == "v540/iframe_index.m3u8")
    #expect(iFrames[0].bandwidth == 186_522)
    #expect(iFrames[0].averageBandwidth == 180_000)
    #expect(iFrames[0].codecs == "avc1.640020")
    #expect(iFrames[1].resolution == Resolution(width: 1920, height: 1080))
    #expect(iFrames[1].otherAttributes == [Attribute(name: "VIDEO-RANGE", value: "SDR")])
  }

  @Test func readsSessionKeys() throws {
    let master = try parseMaster(Fixtures.masterWithSessionKey)
    #expect(
      master.sessionKeys == [
        Key(
          method: .sampleAES, uri: "skd://key65", keyFormat: "com.apple.streamingkeydelivery",
          keyFormatVersions: "1")
      ])
    #expect(master.variants.map(\.uri) == ["low.m3u8", "high.m3u8"])
    #expect(master.variants[0].resolution == nil)
  }

  @Test func toleratesSpacesAndCommentsAroundAttributes() throws {
    let master = try parseMaster(
      """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=1000, CODECS="avc1.4d401f,mp4a.40.2" ,RESOLUTION=640x360,
      # a comment between the tag and its URI

      low.m3u8
      """)
    #expect(master.variants[0].codecs == "avc1.4d401f,mp4a.40.2")
    #expect(master.variants[0].resolution == Resolution(width: 640, height: 360))
    #expect(master.variants[0].uri == "low.m3u8")
  }
}
