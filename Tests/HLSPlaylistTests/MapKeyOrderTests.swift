import HLSPlaylist
import TestTiming
import Testing

/// An `EXT-X-KEY` applies to the `EXT-X-MAP` tags after it (RFC 8216 §4.3.2.4): whether an
/// init section is encrypted depends on where its map stands against the keys, and a
/// written playlist keeps that. (Pins session 38's wrong result: every map was written after
/// its segment's keys, so a clear init section read back as encrypted.)
@Suite(.timed) struct MapKeyOrderTests {
  static let head = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n"
  static let key = "#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\""
  static let key2 = "#EXT-X-KEY:METHOD=AES-128,URI=\"k2.bin\""

  @Test(arguments: [
    // A clear init section, encrypted segments.
    ["#EXT-X-MAP:URI=\"init.mp4\"", key, "#EXTINF:4,", "a.m4s"],
    // The init section encrypted with the segments.
    [key, "#EXT-X-MAP:URI=\"init.mp4\"", "#EXTINF:4,", "a.m4s"],
    // A second, clear init section after encrypted segments; then encrypted ones again.
    [
      key, "#EXT-X-MAP:URI=\"a.mp4\"", "#EXTINF:4,", "a.m4s", "#EXT-X-KEY:METHOD=NONE",
      "#EXT-X-MAP:URI=\"b.mp4\"", key2, "#EXTINF:4,", "b.m4s",
    ],
  ])
  func aWrittenPlaylistKeepsWhichMapsAreEncrypted(_ body: [String]) throws {
    let text = Self.head + body.joined(separator: "\n") + "\n#EXT-X-ENDLIST\n"
    let parsed = try PlaylistParser.parse(text)
    #expect(PlaylistWriter.write(parsed) == text)
    #expect(try PlaylistParser.parse(PlaylistWriter.write(parsed)) == parsed)
  }

  @Test func aMapReadsTheKeysInEffectWhereItStands() throws {
    let text =
      Self.head
      + ["#EXT-X-MAP:URI=\"a.mp4\"", Self.key, "#EXTINF:4,", "a.m4s", "#EXT-X-MAP:URI=\"b.mp4\""]
      .joined(separator: "\n") + "\n#EXTINF:4,\nb.m4s\n"
    guard case .media(let media) = try PlaylistParser.parse(text) else {
      Issue.record("not a media playlist")
      return
    }
    #expect(media.segments.map { $0.map?.keys.count } == [0, 1])
    #expect(media.segments.map(\.keys.count) == [1, 1])
  }
}
