import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The key upgrade of a folder an earlier version wrote (`keys/k0.key`) and a symbolic link
/// at one of its folders (issue 36, item 7).
@Suite(.timed) struct KeyUpgradeLinkTests {
  /// Pins issue 36, item 7 for the key upgrade (`renew-keys`, a `get` of a complete stream):
  /// it rewrote the `playlist.m3u8` of every folder it listed, a linked one included, so the
  /// file the link led to, outside the content, was replaced.
  @Test func theKeyUpgradeNeverRewritesAPlaylistThroughALinkedFolder() throws {
    let work = try TemporaryDirectory()
    let folder = work.url.appending(path: "movie")
    let outside = work.url.appending(path: "outside")
    try FileManager.default.createDirectory(
      at: folder.appending(path: "keys"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    let remote = URL(string: "http://127.0.0.1:9/k0.key")!
    let entry = URL(string: "http://127.0.0.1:9/master.m3u8")!
    try HLSManifest(entryURL: entry, keys: [.init(remote: remote, local: "keys/k0.key")]).write(
      in: folder)
    try Data(count: 16).write(to: folder.appending(path: "keys/k0.key"))
    let playlist = Data("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"../keys/k0.key\"\n".utf8)
    try playlist.write(to: outside.appending(path: "playlist.m3u8"))
    try FileManager.default.createSymbolicLink(
      at: folder.appending(path: "video"), withDestinationURL: outside)

    #expect(try HLSKeyNames.upgrade(folder: folder, entryURL: entry))

    #expect(FileManager.default.contents(atPath: outside.path + "/playlist.m3u8") == playlist)
    #expect(FileSteps.regularFileSize(folder.path + "/keys/k0.key.ts") == 16)
  }
}
