import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import Testing

@testable import OfflineKit

/// nginx serving generated files, and a store with a ``FileCache`` on it, for one test.
/// Keep it alive for the whole test: its folders and nginx go when it does.
final class CacheFixture: Sendable {
  let www: TemporaryDirectory
  let folder: TemporaryDirectory
  let nginx: NginxServer
  var store: URL { folder.url.appending(path: "store", directoryHint: .isDirectory) }

  /// Serves `files` (path → size); the bytes of each are ``body(_:)``.
  init(files: [String: Int]) throws {
    www = try TemporaryDirectory(prefix: "offlinekit-www")
    folder = try TemporaryDirectory(prefix: "offlinekit-cache")
    for (name, size) in files {
      try Self.write(name, size: size, seed: Self.seed(name), into: www)
    }
    nginx = try NginxServer(root: www.url)
    try nginx.start()
  }

  /// Writes `name` into the served folder with `size` bytes (or with `seed` other bytes).
  func serve(_ name: String, size: Int, seed: UInt64? = nil) throws {
    try Self.write(name, size: size, seed: seed ?? Self.seed(name), into: www)
  }

  private static func write(_ name: String, size: Int, seed: UInt64, into www: TemporaryDirectory)
    throws
  {
    let file = www.file(name)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try TestData.bytes(count: size, seed: seed).write(to: file)
  }

  /// The bytes `name` was first served with.
  func body(_ name: String, size: Int) -> Data {
    TestData.bytes(count: size, seed: Self.seed(name))
  }

  static func seed(_ name: String) -> UInt64 {
    name.utf8.reduce(UInt64(7)) { $0 &* 31 &+ UInt64($1) }
  }

  func url(_ path: String) -> URL { nginx.url(path.hasPrefix("/") ? path : "/" + path) }

  /// A cache on the store: no free-space floor, fast retries, and `change` applied.
  func cache(_ change: (inout FileCache.Configuration) -> Void = { _ in }) throws -> FileCache {
    var configuration = FileCache.Configuration(
      minimumFreeSpace: 0,
      retry: RetryPolicy(
        maximumAttempts: 1, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(50)))
    change(&configuration)
    return try FileCache(store: store, configuration: configuration)
  }

  /// The requests nginx logged, waiting (bounded) for at least `count`.
  func requests(atLeast count: Int = 0) async throws -> [AccessLogEntry] {
    try await nginx.accessLog(minimumCount: count)
  }

  /// The index of the store, opened afresh.
  func index() throws -> OfflineIndex {
    try OfflineIndex(directory: store)
  }
}
