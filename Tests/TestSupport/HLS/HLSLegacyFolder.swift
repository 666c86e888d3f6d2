import Foundation

/// Turns an offline stream folder written by today's OfflineKit back into the layout the
/// previous version wrote, so tests can check that such folders still work: keys at
/// `keys/k<N>.key` (not `keys/k<N>.key.ts`), and the playlists and `offline.json` naming them
/// so.
public enum HLSLegacyFolder {
  /// Rewrites `folder` in place.
  ///
  /// - Throws: The file manager's error.
  public static func downgrade(_ folder: URL) throws {
    let manager = FileManager.default
    let keys = folder.appending(path: "keys")
    for name in (try? manager.contentsOfDirectory(atPath: keys.path)) ?? []
    where name.hasSuffix(".key.ts") {
      try manager.moveItem(
        at: keys.appending(path: name), to: keys.appending(path: String(name.dropLast(3))))
    }
    var texts = ["offline.json", "index.m3u8", "index-remote.m3u8", "playlist.m3u8"]
    for entry in try manager.contentsOfDirectory(atPath: folder.path) {
      var isFolder: ObjCBool = false
      if manager.fileExists(atPath: folder.appending(path: entry).path, isDirectory: &isFolder),
        isFolder.boolValue
      {
        texts.append("\(entry)/playlist.m3u8")
      }
    }
    for name in texts {
      let file = folder.appending(path: name)
      guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
      try text.replacingOccurrences(of: ".key.ts\"", with: ".key\"").write(
        to: file, atomically: true, encoding: .utf8)
    }
  }
}
