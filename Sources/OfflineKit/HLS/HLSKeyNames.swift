import Foundation

/// The local names of a stream's keys, and the upgrade of folders whose keys an earlier
/// version named `keys/k0.key`.
///
/// ffmpeg's HLS demuxer (5.1 as Debian 12 ships it, and mpv, which uses it) opens a local file
/// that a playlist names, keys included, only when the name ends in one of its media
/// extensions (`allowed_extensions`: `3gp, aac, avi, ac3, eac3, flac, mkv, m3u8, m4a, m4s,
/// m4v, mpg, mov, mp2, mp3, mp4, mpeg, mpegts, ogg, ogv, oga, ts, vob, vtt, wav, webvtt, cmfv,
/// cmfa, ec3, fmp4`); anything else is "blocked for security reasons" unless the user passes
/// `-allowed_extensions ALL`. The check looks at the text after the last dot of the URL, for
/// `file:` and `data:` URLs alike (a key inlined as a `data:` URI is refused too); http URLs
/// are not checked. No extension in that list names a key, so a key is stored as
/// `keys/k<N>.key.ts`: the name says it is a key, and the `.ts` ending is there only to pass
/// that check. The file keeps mode 0600, so its bytes stay private to the user.
enum HLSKeyNames {
  /// The local path of the key at `index` (in order of first use), inside the content folder.
  static func local(index: Int) -> String { "keys/k\(index).key.ts" }

  /// Whether `local` is a name an earlier version gave (`keys/k0.key`).
  static func isLegacy(_ local: String) -> Bool { local.hasSuffix(".key") }

  /// The name that replaces a legacy one.
  static func upgraded(_ local: String) -> String { isLegacy(local) ? local + ".ts" : local }

  /// Renames the keys of a folder an earlier version wrote, and points its offline playlists
  /// at the new names, in an order that keeps the folder playable at every step: the new key
  /// files are written first (mode 0600), then each playlist (atomically), then
  /// `offline.json`, and only then are the old key files removed. A crash in between leaves
  /// old and new files; the next call finishes the job.
  ///
  /// - Returns: Whether anything was upgraded; false for a folder that needs nothing, or that
  ///   has no `offline.json` (nothing downloaded yet).
  /// - Throws: ``Transfer/Error`` with a `file` kind when a file cannot be written.
  @discardableResult
  static func upgrade(folder: URL, entryURL: URL) throws(Transfer.Error) -> Bool {
    guard FileManager.default.fileExists(atPath: folder.appending(path: HLSManifest.fileName).path),
      let manifest = try? HLSManifest.read(in: folder, url: entryURL)
    else { return false }
    do {
      // `keys/` as a link: no key is read, written or removed through it.
      try ContentFolders.make(forFiles: manifest.keys.map(\.local), in: folder.path)
    } catch {
      throw Transfer.Error(.file(error), url: entryURL, destination: error.path ?? folder.path)
    }
    let legacy = manifest.keys.filter { isLegacy($0.local) }
    for key in legacy {
      let new = folder.appending(path: upgraded(key.local))
      guard FileSteps.regularFileSize(new.path) != 16,
        let bytes = readKey(folder.appending(path: key.local))
      else { continue }
      try AtomicFile.write(bytes, to: new, mode: 0o600, url: key.remote)
    }
    if !legacy.isEmpty {
      let renames = legacy.map { ($0.local, upgraded($0.local)) }
      for playlist in offlinePlaylists(in: folder) {
        try rewrite(playlist, renames: renames, url: entryURL)
      }
      var current = manifest
      current.keys = manifest.keys.map {
        HLSPlan.KeyFile(remote: $0.remote, local: upgraded($0.local))
      }
      try current.write(in: folder)
    }
    // Old key files left by an upgrade that stopped after writing offline.json.
    var removed = false
    for key in manifest.keys {
      let old = folder.appending(path: String(upgraded(key.local).dropLast(3))).path
      if FileSteps.regularFileSize(old) != nil, unlink(old) == 0 { removed = true }
    }
    return !legacy.isEmpty || removed
  }

  /// The 16 bytes of a key file, read without following a link; nil when it is not there.
  private static func readKey(_ url: URL) -> Data? {
    let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 17)
    let count = read(fd, &buffer, buffer.count)
    return count == 16 ? Data(buffer.prefix(16)) : nil
  }

  /// The offline playlists a download writes: `index.m3u8`, `index-remote.m3u8`, and
  /// `playlist.m3u8` at the top and in each rendition's folder.
  static func offlinePlaylists(in folder: URL) -> [URL] {
    var names = ["index.m3u8", "index-remote.m3u8", "playlist.m3u8"]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for entry in entries.sorted()
    where DurableFile.kind(folder.appending(path: entry).path) == .directory {
      names.append("\(entry)/playlist.m3u8")  // a linked folder is not the content's
    }
    return names.map { folder.appending(path: $0) }.filter {
      FileSteps.regularFileSize($0.path) != nil
    }
  }

  /// Points the `EXT-X-KEY` lines of one playlist at the new key names (the URIs are
  /// `keys/k0.key` or `../keys/k0.key`, as our writer wrote them).
  private static func rewrite(_ playlist: URL, renames: [(String, String)], url: URL)
    throws(Transfer.Error)
  {
    guard let data = FileManager.default.contents(atPath: playlist.path),
      let text = String(data: data, encoding: .utf8)
    else { return }
    var lines = text.components(separatedBy: "\n")
    for index in lines.indices where lines[index].hasPrefix("#EXT-X-KEY:") {
      for (old, new) in renames {
        for prefix in ["", "../"] {
          lines[index] = lines[index].replacingOccurrences(
            of: "URI=\"\(prefix)\(old)\"", with: "URI=\"\(prefix)\(new)\"")
        }
      }
    }
    let rewritten = lines.joined(separator: "\n")
    guard rewritten != text else { return }
    try AtomicFile.write(
      Data(rewritten.utf8), to: playlist, mode: ReadableFileMode.mode(for: rewritten), url: url)
  }
}
