import Foundation
import OfflineLocks

#if canImport(Glibc)
  import Glibc
#endif

/// The fixtures this process has made, each in its own directory under one temporary directory
/// that is removed when the process exits (unless `OFFLINEKIT_KEEP_TEMP=1`).
final class HLSFixtureCache: Sendable {
  /// The process-wide cache.
  static let shared = HLSFixtureCache()

  /// One fixture: built at most once; its lock is held while it is built, so a second caller
  /// waits for the first instead of encoding again.
  private final class Entry: Sendable {
    let built = Locked<(folder: URL, product: HLSFixture.Product)?>(nil)
  }

  private let root: URL
  private let entries = Locked<[String: Entry]>([:])

  private init() {
    let name = "offlinekit-hls-fixtures-\(UUID().uuidString.prefix(8).lowercased())-\(getpid())"
    root = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
    atexit {
      if ProcessInfo.processInfo.environment["OFFLINEKIT_KEEP_TEMP"] == "1" { return }
      try? FileManager.default.removeItem(at: HLSFixtureCache.shared.root)
    }
  }

  /// The folder and product cached under `key`, built first with `build` if needed.
  ///
  /// `build` gets an empty staging directory; only when it returns is the directory moved to
  /// its final place, so a failed build leaves nothing behind and the next call retries.
  func product(
    for key: String, build: (URL) throws -> HLSFixture.Product
  ) throws -> (folder: URL, product: HLSFixture.Product) {
    let entry = entries.withLock { entries in
      if let entry = entries[key] { return entry }
      let entry = Entry()
      entries[key] = entry
      return entry
    }
    return try entry.built.withLock { built in
      if let built { return built }
      let fileManager = FileManager.default
      let folder = root.appendingPathComponent(key, isDirectory: true)
      let staging = root.appendingPathComponent(key + ".partial", isDirectory: true)
      try? fileManager.removeItem(at: staging)
      try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
      do {
        let product = try build(staging)
        try fileManager.moveItem(at: staging, to: folder)
        built = (folder, product)
        return (folder, product)
      } catch {
        try? fileManager.removeItem(at: staging)
        throw error
      }
    }
  }

  /// Copies every file of the cached `folder` into `target` (created if needed), replacing
  /// files of the same names: copies, not links, so a test may damage its own.
  static func copyContents(of folder: URL, into target: URL) throws {
    let fileManager = FileManager.default
    try fileManager.createDirectory(at: target, withIntermediateDirectories: true)
    for name in try fileManager.contentsOfDirectory(atPath: folder.path) {
      let copy = target.appendingPathComponent(name)
      if fileManager.fileExists(atPath: copy.path) { try fileManager.removeItem(at: copy) }
      try fileManager.copyItem(at: folder.appendingPathComponent(name), to: copy)
    }
  }
}
