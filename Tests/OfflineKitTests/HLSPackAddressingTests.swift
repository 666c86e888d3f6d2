import Foundation
import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 14 (HLS CPU, packs): which pieces the planner lets go into a pack, and how the
/// offline playlists address the pieces that did, with no network and no disk.
@Suite(.timed) struct HLSPackAddressingTests {
  let base = URL(string: "https://cdn.example/show/video.m3u8")!

  func media(_ body: String) throws -> MediaPlaylist {
    guard
      case .media(let media) = try PlaylistParser.parse(
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n" + body + "#EXT-X-ENDLIST\n")
    else { throw CancellationError() }
    return media
  }

  func plan(_ body: String, folder: String = "") throws -> HLSPlan {
    try HLSPlanner.plan(
      entryURL: base,
      sources: [
        HLSPlanner.Source(folder: folder, url: base, playlist: try media(body), bandwidth: 800_000)
      ],
      master: nil)
  }

  @Test func wholeMediaSegmentsMayBePackedButNotInitSectionsNorByteRanges() throws {
    let plan = try plan(
      """
      #EXT-X-MAP:URI="init.mp4"
      #EXTINF:4,
      a.m4s
      #EXTINF:4,
      #EXT-X-BYTERANGE:1000@0
      all.m4s
      #EXTINF:4,
      #EXT-X-BYTERANGE:1000@1000
      all.m4s

      """, folder: "video")
    let packs = Dictionary(uniqueKeysWithValues: plan.pieces.map { ($0.local, $0.pack) })
    #expect(packs["video/s00000.m4s"] == .some("video/pack.m4s"))
    #expect(packs["video/init0.mp4"] == .some(nil))
    let merged = plan.pieces.filter { $0.slice != nil }
    #expect(merged.count == 1)
    #expect(merged.allSatisfy { $0.pack == nil })
  }

  /// ffmpeg 5.1 asks for a key over HTTP with the byte range of the segment it decrypts
  /// (`Range: bytes=154976-194655` for a 16-byte key: 416), so a pack of encrypted segments
  /// played through `offline serve` failed at the second key. They keep their files.
  @Test func encryptedSegmentsAreNeverPacked() throws {
    let plan = try plan(
      """
      #EXTINF:4,
      clear.ts
      #EXT-X-KEY:METHOD=AES-128,URI="k.bin"
      #EXTINF:4,
      secret.ts
      #EXT-X-KEY:METHOD=NONE
      #EXTINF:4,
      clear-again.ts

      """)
    #expect(plan.pieces.map(\.pack) == ["pack.ts", nil, "pack.ts"])
  }

  @Test func packedSegmentsAreAddressedByRangeAndTheOthersKeepTheirFiles() throws {
    let plan = try plan(
      """
      #EXTINF:4,
      a.ts
      #EXTINF:4,
      b.ts
      #EXTINF:4,
      c.ts

      """)
    let packed: [String: PieceRunner.PackedPiece] = [
      "s00000.ts": .init(pack: "pack.ts", offset: 500, length: 300),
      "s00002.ts": .init(pack: "pack.ts", offset: 0, length: 500),
    ]

    let addressed = HLSPackAddressing.addressing(plan, packed: packed)

    let segments = addressed.mediaFiles[0].playlist.segments
    #expect(segments.map(\.uri) == ["pack.ts", "s00001.ts", "pack.ts"])
    #expect(segments[0].byteRange == ByteRange(length: 300, offset: 500))
    #expect(segments[1].byteRange == nil)
    #expect(segments[2].byteRange == ByteRange(length: 500, offset: 0))
    #expect(addressed.mediaFiles[0].playlist.version == 4, "EXT-X-BYTERANGE needs version 4")
    // Without a master playlist the index is the media playlist: it is addressed too.
    guard case .media(let index) = addressed.index else {
      Issue.record("the index is not a media playlist")
      return
    }
    #expect(index.segments == segments)
    let text = PlaylistWriter.write(.media(index))
    #expect(text.contains("#EXT-X-BYTERANGE:300@500\npack.ts"))
  }

  @Test func withNothingPackedThePlanIsUnchanged() throws {
    let plan = try plan("#EXTINF:4,\na.ts\n")
    let addressed = HLSPackAddressing.addressing(plan, packed: [:])
    #expect(addressed.mediaFiles[0].playlist.segments == plan.mediaFiles[0].playlist.segments)
    #expect(addressed.mediaFiles[0].playlist.version == 3)
  }
}
