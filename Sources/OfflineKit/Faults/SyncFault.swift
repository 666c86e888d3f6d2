import Foundation
import OfflineLocks

/// Folders whose file system a test build makes refuse to sync, as a failing disk does
/// (`syncfs` answering `EIO`): the one fault of durability a test cannot cause on demand.
///
/// Consulted by ``Durability/syncFileSystem(of:)`` in debug builds only; release builds
/// never look. Armed per folder, so tests running side by side do not see each other's.
enum SyncFault {
  private static let failing = Locked<[String: Int32]>([:])

  /// Makes every sync of a folder at or under `folder` fail with `code` until
  /// ``clear(under:)``.
  static func fail(under folder: URL, with code: Int32) {
    failing.withLock { $0[folder.standardizedFileURL.path] = code }
  }

  /// Lets syncs under `folder` reach the disk again.
  static func clear(under folder: URL) {
    failing.withLock { $0[folder.standardizedFileURL.path] = nil }
  }

  /// The `errno` a sync of `folder` fails with; nil when no armed folder holds it.
  static func code(for folder: URL) -> Int32? {
    let path = folder.standardizedFileURL.path
    return failing.withLock { armed in
      armed.first { path == $0.key || path.hasPrefix($0.key + "/") }?.value
    }
  }
}
