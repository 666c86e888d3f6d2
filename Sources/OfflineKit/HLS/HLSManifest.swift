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

/// Small files written whole or not at all: a temporary file, fsync, rename.
enum AtomicFile {
  static func write(_ data: Data, to target: URL, mode: mode_t, url: URL) throws(Transfer.Error) {
    let folder = target.deletingLastPathComponent()
    let temporary = folder.appending(path: ".\(target.lastPathComponent).tmp")
    let failure = { (operation: TransferFileError.Operation, code: Int32) in
      Transfer.Error(
        .file(TransferFileError(operation, errno: code, path: target.path)), url: url,
        destination: target.path)
    }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw failure(.createDirectory, EACCES)
    }
    unlink(temporary.path)
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard fd >= 0 else { throw failure(.open, errno) }
    defer { close(fd) }
    let written = data.withUnsafeBytes { SystemIO.write(fd, $0.baseAddress, $0.count) }
    guard written == data.count else { throw failure(.write, written < 0 ? errno : ENOSPC) }
    fchmod(fd, mode)
    guard Durability.sync(fd) == 0 else { throw failure(.sync, errno) }
    guard rename(temporary.path, target.path) == 0 else { throw failure(.rename, errno) }
  }
}
