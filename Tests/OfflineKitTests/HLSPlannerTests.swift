import Foundation
import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// Planning without a network: what is refused before any byte, how byte ranges are merged,
/// and what the offline playlists say.
@Suite(.timed) struct HLSPlannerTests {
  let base = URL(string: "https://cdn.example/show/master.m3u8")!

  func media(_ body: String) throws -> MediaPlaylist {
    guard
      case .media(let media) = try PlaylistParser.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n" + body)
    else { throw CancellationError() }
    return media
  }

  func plan(_ playlist: MediaPlaylist) throws -> HLSPlan {
    try HLSPlanner.plan(
      entryURL: base,
      sources: [HLSPlanner.Source(folder: "", url: base, playlist: playlist, bandwidth: 800_000)],
      master: nil)
  }

  func refusal(_ body: String) throws -> String? {
    let playlist = try media(body)
    do {
      _ = try plan(playlist)
      return nil
    } catch let error as Transfer.Error {
      guard case .invalidMedia(let what) = error.kind else { return "\(error)" }
      return what
    }
  }

  @Test func fairPlayKeysAreRefusedBeforeAnything() throws {
    let what = try refusal(
      """
      #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
      #EXTINF:4,
      a.ts
      #EXT-X-ENDLIST
      """)
    #expect(what?.contains("KEYFORMAT") == true)
  }

  @Test func aLivePlaylistIsRefused() throws {
    #expect(try refusal("#EXTINF:4,\na.ts\n")?.contains("live") == true)
  }

  @Test func localAndNonHTTPURIsAreRefused() throws {
    for uri in ["file:///etc/passwd", "ftp://cdn.example/a.ts", "data:text/plain,hi"] {
      let what = try refusal("#EXTINF:4,\n\(uri)\n#EXT-X-ENDLIST\n")
      #expect(what?.contains("not an http or https URL") == true, "\(uri)")
    }
  }

  @Test func climbingURIsStayRemoteAndLocalNamesAreOurs() throws {
    let plan = try plan(
      try media("#EXTINF:4,\n../../etc/passwd\n#EXTINF:4,\n/etc/shadow\n#EXT-X-ENDLIST\n"))
    #expect(
      plan.pieces.map(\.remote.absoluteString) == [
        "https://cdn.example/etc/passwd", "https://cdn.example/etc/shadow",
      ])
    #expect(plan.pieces.map(\.local) == ["s00000.ts", "s00001.ts"])
  }

  @Test func adjacentByteRangesOfOneFileBecomeOneSlice() throws {
    let plan = try plan(
      try media(
        """
        #EXT-X-MAP:URI="all.mp4",BYTERANGE="700@0"
        #EXTINF:4,
        #EXT-X-BYTERANGE:1000@700
        all.mp4
        #EXTINF:4,
        #EXT-X-BYTERANGE:1000
        all.mp4
        #EXT-X-ENDLIST
        """))
    #expect(plan.pieces.count == 1)
    #expect(plan.pieces.first?.slice == Transfer.Slice(offset: 0, length: 2700))
    let offline = try #require(plan.mediaFiles.first?.playlist)
    #expect(
      offline.segments.map(\.byteRange) == [
        ByteRange(length: 1000, offset: 700), ByteRange(length: 1000, offset: 1700),
      ])
    #expect(offline.segments.first?.map?.uri == plan.pieces.first?.local)
  }

  @Test func keysAreSharedAndKeepTheirIVs() throws {
    let plan = try plan(
      try media(
        """
        #EXT-X-MEDIA-SEQUENCE:7
        #EXT-X-KEY:METHOD=AES-128,URI="k.bin",IV=0x000102030405060708090A0B0C0D0E0F
        #EXTINF:4,
        a.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k.bin"
        #EXTINF:4,
        b.ts
        #EXT-X-ENDLIST
        """))
    #expect(plan.keys.map(\.local) == ["keys/k0.key.ts"])
    let segments = try #require(plan.mediaFiles.first?.playlist.segments)
    #expect(segments[0].key?.uri == "keys/k0.key.ts")
    #expect(segments[0].key?.iv?.count == 16)
    #expect(segments[1].key?.iv == nil)
    #expect(plan.mediaFiles.first?.playlist.mediaSequence == 7)
  }

  @Test func theRemoteIndexKeepsWhatWasNotDownloaded() throws {
    guard
      case .master(let master) = try PlaylistParser.parse(
        """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Français",LANGUAGE="fr",URI="fr.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=200000,AUDIO="a"
        low.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=900000,AUDIO="a"
        high.m3u8
        """)
    else { throw CancellationError() }
    let selection = try #require(HLSSelection.choose(from: master, options: StreamConfiguration()))
    #expect(selection.variant.uri == "high.m3u8")
    #expect(selection.audio.map(\.language) == ["en"])
    let rewriter = HLSMasterRewriter(entryURL: base, master: master, selection: selection)
    let local = try rewriter.offline(sources: [], keepingRemote: false)
    let remote = try rewriter.offline(sources: [], keepingRemote: true)
    #expect(local.variants.map(\.uri) == ["video/playlist.m3u8"])
    #expect(
      remote.variants.map(\.uri).sorted() == [
        "https://cdn.example/show/low.m3u8", "video/playlist.m3u8",
      ])
    #expect(remote.renditions.compactMap(\.uri).contains("https://cdn.example/show/fr.m3u8"))
    #expect(!local.renditions.compactMap(\.uri).contains { $0.hasPrefix("https:") })
  }

  @Test func aMinimumBitrateTakesTheLowestVariantAtOrAboveIt() throws {
    guard
      case .master(let master) = try PlaylistParser.parse(
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=200000\nlow.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=600000\nmid.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=900000\nhigh.m3u8\n"
      )
    else { throw CancellationError() }
    let choose = { (choice: StreamConfiguration.VariantChoice) in
      HLSSelection.choose(from: master, options: StreamConfiguration(variant: choice))?.variant.uri
    }
    #expect(choose(.minimumBitrate(500_000)) == "mid.m3u8")
    #expect(choose(.minimumBitrate(5_000_000)) == "high.m3u8")
    #expect(choose(.lowest) == "low.m3u8")
  }
}
