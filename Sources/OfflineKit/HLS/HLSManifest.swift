import Foundation

/// `offline.json` in an HLS content's folder: where the stream came from and which remote
/// key each local key file holds, so keys can be renewed without the playlists.
struct HLSManifest: Codable, Sendable {
  static let fileName = "offline.json"

  var entryURL: URL
  var keys: [HLSPlan.KeyFile]

  init(entryURL: URL, keys: [HLSPlan.KeyFile]) {
    self.entryURL = entryURL
    self.keys = keys
  }

  func write(in folder: URL) throws(Transfer.Error) {
    let data: Data
    do {
      data = try JSONEncoder().encode(self)
    } catch {
      throw Transfer.Error(
        .invalidMedia("cannot encode the manifest"), url: entryURL, destination: folder.path)
    }
    try AtomicFile.write(
      data, to: folder.appending(path: Self.fileName), mode: 0o644, url: entryURL)
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
