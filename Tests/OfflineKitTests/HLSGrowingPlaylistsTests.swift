import Foundation
import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// The playlists a player opens while an HLS stream downloads (issue 40, item 1), from the
/// plan and the pieces on disk, without I/O.
@Suite(.timed) struct HLSGrowingPlaylistsTests {
  let base = URL(string: "https://cdn.example/show/index.m3u8")!

  func plan(_ body: String) throws -> HLSPlan {
    guard
      case .media(let media) = try PlaylistParser.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n" + body)
    else { throw CancellationError() }
    return try HLSPlanner.plan(
      entryURL: base,
      sources: [HLSPlanner.Source(folder: "", url: base, playlist: media, bandwidth: 800_000)],
      master: nil)
  }

  func media(_ files: [HLSGrowingPlaylists.File], _ local: String) throws -> MediaPlaylist {
    let text = try #require(files.first { $0.local == local }?.text)
    guard case .media(let media) = try PlaylistParser.parse(text) else {
      throw CancellationError()
    }
    return media
  }

  /// Four segments behind one init section.
  var fragmented: String {
    """
    #EXT-X-MAP:URI="init.mp4"
    #EXTINF:4,
    a.m4s
    #EXTINF:4,
    b.m4s
    #EXTINF:4,
    c.m4s
    #EXTINF:4,
    d.m4s
    #EXT-X-ENDLIST
    """
  }

  @Test func theRestrictedPlaylistGrowsUpToTheFirstSegmentNotOnDisk() throws {
    let plan = try plan(fragmented)
    let growing = HLSGrowingPlaylists(plan: plan)
    // The init section, the first two segments and the fourth: the third is missing.
    let landed: Set = ["init0.mp4", "s00000.m4s", "s00001.m4s", "s00003.m4s"]
    #expect(landed.isSubset(of: Set(plan.pieces.map(\.local))))
    let files = growing.files(for: PieceLanding(landed: landed))
    let restricted = try media(files, HLSGrowingPlaylists.restrictedIndex)
    #expect(restricted.segments.count == 2)
    #expect(restricted.playlistType == .event && !restricted.hasEndList)
    #expect(restricted.segments.allSatisfy { $0.map?.uri == "init0.mp4" })
    let ended = try media(
      growing.files(for: PieceLanding(landed: landed), ended: true),
      HLSGrowingPlaylists.restrictedIndex)
    #expect(ended.segments.count == 2 && ended.hasEndList, "a stopped run plays what it has")
  }

  @Test func aSegmentWithoutItsInitSectionIsNotOnDisk() throws {
    let plan = try plan(fragmented)
    let segmentsOnly = Set(plan.pieces.map(\.local).filter { !$0.hasPrefix("init") })
    let files = HLSGrowingPlaylists(plan: plan).files(for: PieceLanding(landed: segmentsOnly))
    #expect(try media(files, HLSGrowingPlaylists.restrictedIndex).segments.isEmpty)
    let mixed = try media(files, HLSGrowingPlaylists.mixedIndex)
    #expect(mixed.segments.first?.map?.uri == "https://cdn.example/show/init.mp4")
    #expect(
      mixed.segments.first?.uri == "https://cdn.example/show/a.m4s", "played whole from the origin")
  }

  @Test func theMixedPlaylistIsWholeWithTheOriginWhereNothingIsOnDisk() throws {
    let plan = try plan(fragmented)
    let files = HLSGrowingPlaylists(plan: plan).files(
      for: PieceLanding(landed: ["init0.mp4", "s00001.m4s"]))
    let mixed = try media(files, HLSGrowingPlaylists.mixedIndex)
    #expect(mixed.hasEndList && mixed.playlistType == .vod)
    #expect(
      mixed.segments.map(\.uri) == [
        "https://cdn.example/show/a.m4s", "s00001.m4s", "https://cdn.example/show/c.m4s",
        "https://cdn.example/show/d.m4s",
      ])
    #expect(mixed.segments.allSatisfy { $0.map?.uri == "init0.mp4" }, "the init is on disk")
  }

  @Test func everySegmentOnDiskIsTheOrdinaryOfflinePlaylist() throws {
    let plan = try plan(fragmented)
    let growing = HLSGrowingPlaylists(plan: plan)
    let files = growing.files(for: PieceLanding(landed: growing.complete))
    #expect(
      files.first { $0.local == HLSGrowingPlaylists.restrictedIndex }?.text
        == PlaylistWriterBridge.text(plan.index))
  }

  @Test func aPackedSegmentIsListedByItsRegionOnceOnDisk() throws {
    let plan = try plan("#EXTINF:4,\na.ts\n#EXTINF:4,\nb.ts\n#EXT-X-ENDLIST\n")
    let first = try #require(plan.pieces.first)
    let pack = try #require(first.pack)
    let landing = PieceLanding(
      landed: [first.local],
      packed: [first.local: PieceRunner.PackedPiece(pack: pack, offset: 0, length: 188)])
    let files = HLSGrowingPlaylists(plan: plan).files(for: landing)
    let restricted = try media(files, HLSGrowingPlaylists.restrictedIndex)
    #expect(restricted.segments.map(\.uri) == [(pack as NSString).lastPathComponent])
    #expect(restricted.segments.first?.byteRange == ByteRange(length: 188, offset: 0))
    #expect(
      try media(files, HLSGrowingPlaylists.mixedIndex).segments.last?.uri
        == "https://cdn.example/show/b.ts")
    // Read through by the service: by its own name, never a range of a pack that grows.
    let through = try media(files, HLSGrowingPlaylists.throughIndex)
    #expect(through.segments.map(\.uri) == plan.pieces.map(\.local))
    #expect(through.segments.allSatisfy { $0.byteRange == nil })
  }

  @Test func aMasterPointsAtTheGrowingMediaPlaylists() throws {
    let master = URL(string: "https://cdn.example/show/master.m3u8")!
    guard
      case .master(let parsed) = try PlaylistParser.parse(
        """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=800000
        low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=1600000
        high/index.m3u8
        """),
      case .media(let low) = try PlaylistParser.parse(
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"),
      let selection = HLSSelection.choose(
        from: parsed, options: StreamConfiguration(variant: .lowest))
    else { throw CancellationError() }
    let plan = try HLSPlanner.plan(
      entryURL: master,
      sources: [
        HLSPlanner.Source(
          folder: "video", url: URL(string: "https://cdn.example/show/low/index.m3u8")!,
          playlist: low, bandwidth: 800_000)
      ], master: (parsed, selection))
    let files = HLSGrowingPlaylists(plan: plan).files(for: PieceLanding())
    #expect(
      files.map(\.local) == [
        "video/partial.m3u8", "video/remote-partial.m3u8", "video/through.m3u8",
        "index-partial.m3u8", "index-remote-partial.m3u8", "index-through.m3u8",
      ])
    let restricted = try #require(files.first { $0.local == "index-partial.m3u8" }?.text)
    #expect(restricted.contains("video/partial.m3u8") && !restricted.contains("playlist.m3u8"))
    let mixed = try #require(files.first { $0.local == "index-remote-partial.m3u8" }?.text)
    #expect(mixed.contains("video/remote-partial.m3u8"))
    #expect(mixed.contains("https://cdn.example/show/high/index.m3u8"), "the rest stays online")
    // Read through by the local service: the chosen variant only, every segment by its
    // local name, nothing on disk yet and nothing remote.
    let through = try #require(files.first { $0.local == "index-through.m3u8" }?.text)
    #expect(through.contains("video/through.m3u8") && !through.contains("high/index.m3u8"))
    let media = try #require(files.first { $0.local == "video/through.m3u8" }?.text)
    #expect(media.contains("#EXT-X-PLAYLIST-TYPE:VOD") && media.contains("#EXT-X-ENDLIST"))
    let segments = media.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(segments.count == 1 && segments[0].hasSuffix(".ts") && !media.contains("https://"))
  }
}
