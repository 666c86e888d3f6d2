import Foundation

/// `offline.json` in an HLS content's folder: where the stream came from and which remote
/// key each local key file holds, so keys can be renewed without the playlists. Those URLs
/// may be signed (a playlist token, a key URI's signature), so the file is the user's
/// alone (0600), as the store's secrets are.
struct HLSManifest: Codable, Sendable, Equatable {
  static let fileName = "offline.json"

  var entryURL: URL
  var keys: [HLSPlan.KeyFile]

  init(entryURL: URL, keys: [HLSPlan.KeyFile]) {
    self.entryURL = entryURL
    self.keys = keys
  }

  /// Writes the manifest, unless the folder holds this one already: a run that changes
  /// nothing (a repair refused, say) leaves the file and its recorded SHA-256 as they were.
  /// Keys sorted: the same manifest gives the same bytes in every process.
  func write(in folder: URL) throws(Transfer.Error) {
    if let existing = try? Self.read(in: folder, url: entryURL), existing == self { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(self)
    } catch {
      throw Transfer.Error(
        .invalidMedia("cannot encode the manifest"), url: entryURL, destination: folder.path)
    }
    try AtomicFile.write(
      data, to: folder.appending(path: Self.fileName), mode: ReadableFileMode.owner, url: entryURL)
  }

  /// Makes `offline.json`, and each offline playlist whose text holds a `?`, the user's
  /// alone (0600) where an earlier version left them readable by others; links are not
  /// followed. Whether any file changed.
  static func restrictModes(in folder: URL) -> Bool {
    var changed = false
    let manifest = folder.appending(path: fileName)
    for file in [manifest] + HLSKeyNames.offlinePlaylists(in: folder) {
      var info = stat()
      guard lstat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
        info.st_mode & 0o077 != 0
      else { continue }
      if file != manifest {
        guard let data = FileManager.default.contents(atPath: file.path),
          ReadableFileMode.mode(for: String(decoding: data, as: UTF8.self))
            == ReadableFileMode.owner
        else { continue }
      }
      if chmod(file.path, ReadableFileMode.owner) == 0 { changed = true }
    }
    return changed
  }

  static func read(in folder: URL, url: URL) throws(Transfer.Error) -> HLSManifest {
    let path = folder.appending(path: fileName)
    guard let data = FileManager.default.contents(atPath: path.path),
      let manifest = try? JSONDecoder().decode(HLSManifest.self, from: data)
    else {
      throw Transfer.Error(
        .invalidMedia("\(path.path) is missing or damaged: download the stream again"), url: url,
        destination: folder.path)
    }
    return manifest
  }
}
