import Foundation

extension OfflineIndex {
  /// Opens the index in `directory`; when the file there is damaged (not a database, or
  /// corrupt) or a symbolic link, moves it and its `-wal` and `-shm` files aside as
  /// `index.sqlite.damaged-<time>` (a link itself, never what it points to) and opens a
  /// fresh index instead. Nothing is deleted.
  ///
  /// - Returns: The index, and where the damaged file went when it was moved.
  /// - Throws: Any other ``StoreError`` (a lock held by another process past the timeout, a
  ///   directory that cannot be created), and errors of the fresh index.
  package static func openQuarantiningDamage(
    directory: URL, busyTimeout: Duration = .seconds(5)
  ) throws(StoreError) -> (index: OfflineIndex, quarantined: URL?) {
    do {
      return (try OfflineIndex(directory: directory, busyTimeout: busyTimeout), nil)
    } catch {
      guard
        error.kind == .notADatabase || error.kind == .corrupt
          || error.extendedResultCode == StoreError.symbolicLinkCode
      else { throw error }
    }
    let original = directory.appending(path: fileName)
    let stamp = Int(Date().timeIntervalSince1970)
    let moved = directory.appending(path: "\(fileName).damaged-\(stamp)")
    for suffix in ["", "-wal", "-shm"] {
      let from = original.path + suffix
      var info = stat()
      guard lstat(from, &info) == 0 else { continue }  // a dangling link is moved too
      guard rename(from, moved.path + suffix) == 0 else {
        throw StoreError(
          kind: .cannotOpen,
          message: "cannot move the damaged index aside: \(String(cString: strerror(errno)))",
          sql: nil, path: from)
      }
    }
    return (try OfflineIndex(directory: directory, busyTimeout: busyTimeout), moved)
  }
}
