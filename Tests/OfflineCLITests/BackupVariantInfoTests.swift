import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 43, item 3: `offline info` of a master whose variants are on two content steering
/// pathways (and one with a redundant backup URI) lists each rendition once, with its
/// sources, as text and in `--json`.
@Suite(.ownThreads, .timed) struct BackupVariantInfoTests {
  let server: FaultServer

  init() throws {
    server = try FaultServer()
    let media =
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\ns0.ts\n"
      + "#EXT-X-ENDLIST\n"
    for path in ["/a/lo.m3u8", "/a/hi.m3u8", "/b/lo.m3u8", "/b/hi.m3u8", "/c/hi.m3u8"] {
      server.setRoute(path, .status(code: 200, body: Data(media.utf8)))
    }
    let master = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="steering.json",PATHWAY-ID="A"
      #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=1280x720,CODECS="avc1.64001f",PATHWAY-ID="A"
      a/hi.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360,CODECS="avc1.64001e",PATHWAY-ID="A"
      a/lo.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=1280x720,CODECS="avc1.64001f",PATHWAY-ID="B"
      b/hi.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360,CODECS="avc1.64001e",PATHWAY-ID="B"
      b/lo.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=1280x720,CODECS="avc1.64001f",PATHWAY-ID="A"
      c/hi.m3u8

      """
    server.setRoute("/master.m3u8", .status(code: 200, body: Data(master.utf8)))
  }

  @Test func infoListsABackupVariantAsASourceOfItsVariant() async throws {
    let run = try await InProcessOffline.run(["info", server.url("/master.m3u8").absoluteString])
    #expect(run.status == 0, "\(run.stderrText)")
    let rows = run.stdoutText.split(separator: "\n").filter { $0.contains("bit/s") }
    #expect(rows.count == 2, "each rendition once: \(rows)")
    #expect(rows.first?.contains("400000") == true && rows.first?.hasSuffix("2 sources") == true)
    #expect(rows.last?.contains("900000") == true && rows.last?.hasSuffix("3 sources") == true)
  }

  @Test func infoJSONNamesTheSourcesOfEachVariant() async throws {
    let run = try await InProcessOffline.run(
      ["info", server.url("/master.m3u8").absoluteString, "--json"])
    #expect(run.status == 0, "\(run.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdoutText.utf8)) as? [String: Any])
    let variants = try #require(object["variants"] as? [[String: Any]])
    #expect(variants.map { $0["bandwidth"] as? Int } == [400_000, 900_000])
    #expect(
      variants.map { $0["sources"] as? [String] } == [
        ["a/lo.m3u8", "b/lo.m3u8"], ["a/hi.m3u8", "c/hi.m3u8", "b/hi.m3u8"],
      ])
    #expect(variants.allSatisfy { $0["error"] == nil }, "\(variants)")
  }

  /// The first pathway's URI is the one read: the backups are not asked for their playlists.
  @Test func infoReadsOneMediaPlaylistPerVariant() async throws {
    let run = try await InProcessOffline.run(["info", server.url("/master.m3u8").absoluteString])
    #expect(run.status == 0, "\(run.stderrText)")
    let asked = server.requests.map(\.path).filter { $0.hasSuffix(".m3u8") }.sorted()
    #expect(asked == ["/a/hi.m3u8", "/a/lo.m3u8", "/master.m3u8"], "\(asked)")
  }
}
