import HLSPlaylist
import TestTiming
import Testing

/// Issue 43, item 3: redundant variants (RFC 8216 §6.2.3) and content steering pathways
/// (RFC 8216bis §4.4.6) are the same rendition at other places.
@Suite(.timed) struct BackupVariantTests {
  static let redundant = """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e"
    https://cdn1.example/low.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720,CODECS="avc1.4d401f"
    https://cdn1.example/high.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e"
    https://cdn2.example/low.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720,CODECS="avc1.4d401f"
    https://cdn2.example/high.m3u8
    """

  static let steered = """
    #EXTM3U
    #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example/manifest.json",PATHWAY-ID="CDN-B"
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e",PATHWAY-ID="CDN-A"
    https://a.example/low.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e",PATHWAY-ID="CDN-B"
    https://b.example/low.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e",PATHWAY-ID="CDN-C"
    https://c.example/low.m3u8
    """

  @Test func aRedundantStreamIsABackupNotAnotherChoice() throws {
    let master = try parseMaster(Self.redundant)
    #expect(
      master.primaryVariants.map(\.uri) == [
        "https://cdn1.example/low.m3u8", "https://cdn1.example/high.m3u8",
      ])
    #expect(master.backups(of: master.variants[1]).map(\.uri) == ["https://cdn2.example/high.m3u8"])
    #expect(master.backups(of: master.variants[0]).map(\.uri) == ["https://cdn2.example/low.m3u8"])
  }

  @Test func aDifferentResolutionOrCodecIsNoBackup() throws {
    let master = try parseMaster(
      """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e"
      a.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=480x270,CODECS="avc1.4d401e"
      b.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="hvc1.1.6.L93.B0"
      c.m3u8
      """)
    #expect(master.backups(of: master.variants[0]).isEmpty)
    #expect(master.primaryVariants.count == 3)
  }

  @Test func readsContentSteeringAndPathwayIDs() throws {
    let master = try parseMaster(Self.steered)
    #expect(
      master.contentSteering
        == ContentSteering(serverURI: "https://steer.example/manifest.json", pathwayID: "CDN-B"))
    #expect(master.variants.map(\.pathwayID) == ["CDN-A", "CDN-B", "CDN-C"])
    #expect(master.variants.allSatisfy { $0.otherAttributes.isEmpty })
  }

  @Test func theDefaultPathwayComesFirstThenTheOthersAsListed() throws {
    let master = try parseMaster(Self.steered)
    #expect(master.pathwayOrder == ["CDN-B", "CDN-A", "CDN-C"])
    #expect(master.primaryVariants.map(\.uri) == ["https://b.example/low.m3u8"])
    #expect(
      master.backups(of: master.primaryVariants[0]).map(\.uri) == [
        "https://a.example/low.m3u8", "https://c.example/low.m3u8",
      ])
  }

  @Test func steeringAndPathwaysAreWrittenBack() throws {
    let master = try parseMaster(Self.steered)
    let text = PlaylistWriter.write(master)
    #expect(
      text.contains(
        #"#EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example/manifest.json",PATHWAY-ID="CDN-B""#
      ))
    #expect(try parseMaster(text) == master)
  }

  @Test func steeringWithoutServerURIIsRefusedAndSoIsASecondTag() {
    let variant = "#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"
    #expect(
      parseError("#EXTM3U\n#EXT-X-CONTENT-STEERING:PATHWAY-ID=\"A\"\n" + variant)?.line == 2)
    let twice = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="a.json"
      #EXT-X-CONTENT-STEERING:SERVER-URI="b.json"

      """ + variant
    #expect(parseError(twice)?.line == 3)
  }
}

extension BackupVariantTests {
  @Test func aSteeringManifestsPriorityReordersThePathways() throws {
    let master = try parseMaster(Self.steered).steered(by: ["CDN-X", "CDN-C", "CDN-A"])
    #expect(master.pathwayOrder == ["CDN-C", "CDN-A", "CDN-B"])
    #expect(master.primaryVariants.map(\.uri) == ["https://c.example/low.m3u8"])
    #expect(
      master.backups(of: master.primaryVariants[0]).map(\.uri) == [
        "https://a.example/low.m3u8", "https://b.example/low.m3u8",
      ])
  }

  @Test func aPriorityNamingNoPathwayOfThePlaylistChangesNothing() throws {
    let master = try parseMaster(Self.steered)
    #expect(master.steered(by: ["elsewhere"]) == master)
    #expect(master.steered(by: []) == master)
  }
}
