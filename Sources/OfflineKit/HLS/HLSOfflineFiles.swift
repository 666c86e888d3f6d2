import Foundation

/// The offline playlists, written last: `index.m3u8` exists only when every piece is on disk.
struct HLSOfflineFiles {
  let folder: URL

  func write(_ plan: HLSPlan) throws(Transfer.Error) {
    for media in plan.mediaFiles {
      try write(PlaylistWriterBridge.text(.media(media.playlist)), to: media.local)
    }
    try write(PlaylistWriterBridge.text(plan.indexWithRemote), to: "index-remote.m3u8")
    try write(PlaylistWriterBridge.text(plan.index), to: "index.m3u8")
  }

  /// Removes the offline playlists of `plan`, the entry points first, so that the folder
  /// has no `index.m3u8` while pieces it may address are rewritten; a missing one is fine.
  func remove(_ plan: HLSPlan) throws(Transfer.Error) {
    for local in ["index.m3u8", "index-remote.m3u8"] + plan.mediaFiles.map(\.local)
      + Self.growing(plan)
    {
      let target = folder.appending(path: local)
      guard FileSteps.unlink(target.path) == 0 || errno == ENOENT else {
        throw Transfer.Error(
          .file(TransferFileError(.remove, errno: errno, path: target.path)), url: target,
          destination: target.path)
      }
    }
  }

  /// The growing playlists of `plan` (``HLSGrowingPlaylists``), which address packs too.
  private static func growing(_ plan: HLSPlan) -> [String] {
    let folders = Set(plan.mediaFiles.map { ($0.local as NSString).deletingLastPathComponent })
    return [HLSGrowingPlaylists.restrictedIndex, HLSGrowingPlaylists.mixedIndex]
      + folders.sorted().filter { !$0.isEmpty }.flatMap { folder in
        [HLSGrowingPlaylists.restrictedMedia, HLSGrowingPlaylists.mixedMedia].map {
          "\(folder)/\($0)"
        }
      }
  }

  /// Writes one playlist: 0600 when it keeps a remote URL with a query (`index-remote.m3u8`
  /// may name signed variant URLs), else 0644.
  private func write(_ text: String, to local: String) throws(Transfer.Error) {
    let target = folder.appending(path: local)
    try AtomicFile.write(
      Data(text.utf8), to: target, mode: ReadableFileMode.mode(for: text), url: target)
  }
}
