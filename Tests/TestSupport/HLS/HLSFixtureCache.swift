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

  /// A fixture's folder and what its build left there.
  typealias Built = (folder: URL, product: HLSFixture.Product)

  private let root: URL
  /// One build per key: the first caller starts it, every caller for that key awaits the
  /// same task, so parallel tests that want one fixture wait for one encode (no thread is
  /// held while they wait). A failed build is dropped, so the next call retries.
  private let builds = Locked<[String: Task<Built, any Error>]>([:])

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
  /// its final place, so a failed build leaves nothing behind and the next call retries, and
  /// a reader never sees a half-written fixture.
  func product(
    for key: String, build: @escaping @Sendable (URL) async throws -> HLSFixture.Product
  ) async throws -> Built {
    let task = builds.withLock { builds in
      if let task = builds[key] { return task }
      let task = Task { [root] in try await Self.make(key, in: root, build: build) }
      builds[key] = task
      return task
    }
    do {
      return try await task.value
    } catch {
      builds.withLock { builds in
        if builds[key] == task { builds[key] = nil }
      }
      throw error
    }
  }

  /// Builds `key` in a staging folder of `root` and moves it into place.
  private static func make(
    _ key: String, in root: URL, build: @Sendable (URL) async throws -> HLSFixture.Product
  ) async throws -> Built {
    let fileManager = FileManager.default
    let folder = root.appendingPathComponent(key, isDirectory: true)
    let staging = root.appendingPathComponent(key + ".partial", isDirectory: true)
    try? fileManager.removeItem(at: staging)
    try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
    do {
      let product = try await build(staging)
      try fileManager.moveItem(at: staging, to: folder)
      return (folder, product)
    } catch {
      try? fileManager.removeItem(at: staging)
      throw error
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
