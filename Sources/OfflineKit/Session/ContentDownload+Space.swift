import Foundation
import OfflineHTTP

extension StorageSpace {
  /// Why a download does not fit.
  package enum Shortage: Sendable, Equatable {
    /// Its bytes and the margin exceed what the file system holds even empty, by `needed`.
    case capacity(needed: Int64)
    /// The bytes still to come and the margin exceed what is available now, by `needed`.
    case available(needed: Int64)
  }

  /// Why a download of `length` bytes, `written` of them on disk already, does not fit
  /// with `margin` bytes kept free; nil when it fits. The queue and `offline get` decide
  /// with it alike.
  package func shortage(length: Int64, written: Int64, margin: Int64) -> Shortage? {
    if length + margin > capacity { return .capacity(needed: length + margin - capacity) }
    let remaining = max(0, length - written)
    guard available - remaining < margin else { return nil }
    return .available(needed: remaining + margin - available)
  }
}

extension ContentDownload {
  /// A download that does not fit on the destination's file system.
  package struct SpaceShortage: Sendable, Equatable {
    /// The folder whose file system was looked at (the destination's nearest one that exists).
    package var folder: String
    /// The download's size as the server stated it (0 for a stream, or when it did not say).
    package var length: Int64
    /// Bytes still to come (the size less what a partial download holds).
    package var remaining: Int64
    /// The margin to keep free.
    package var margin: Int64
    /// The file system's space.
    package var space: StorageSpace
    /// Why it does not fit.
    package var shortage: StorageSpace.Shortage
  }

  /// Why the download would not fit with `margin` bytes kept free, or nil when it fits (or
  /// the space cannot be read). A file's size comes from a `HEAD` through the session (a
  /// source behind a token answers it only with the token); when the server does not tell
  /// it, and for a stream, only the margin is checked.
  package func spaceShortage(keepingFree margin: Int64) async -> SpaceShortage? {
    let folder = Self.existingFolder(of: destination)
    guard let space = StorageSpace(at: folder) else { return nil }
    var length: Int64 = 0
    if kind == .file, let head = try? await session.head(of: url),
      (200..<300).contains(head.status)
    {
      length = head.contentLength ?? 0
    }
    let written = kind == .file ? FileSteps.regularFileSize(destination + ".part") ?? 0 : 0
    guard let shortage = space.shortage(length: length, written: written, margin: margin) else {
      return nil
    }
    return SpaceShortage(
      folder: folder, length: length, remaining: max(0, length - written), margin: margin,
      space: space, shortage: shortage)
  }

  /// The folder of `path`, or its nearest ancestor that exists.
  private static func existingFolder(of path: String) -> String {
    var folder = (path as NSString).deletingLastPathComponent
    while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
      folder = (folder as NSString).deletingLastPathComponent
    }
    return folder.isEmpty ? "." : folder
  }
}
