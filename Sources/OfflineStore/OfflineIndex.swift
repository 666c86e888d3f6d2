import Foundation

/// The offline index of one store: `index.sqlite` in the store's directory, and the tables on it.
///
/// Each feature keeps its own list of migrations (``TransferJournal/migrations`` today) and
/// applies it when the index opens, so a new feature adds a table by adding a list.
///
/// ```swift
/// let index = try OfflineIndex(directory: URL(filePath: "/var/lib/app/offline"))
/// let unfinished = try index.transfers.all().filter { $0.phase != .complete }
/// ```
package final class OfflineIndex: Sendable {
  /// The name of the database file inside ``directory``.
  package static let fileName = "index.sqlite"

  /// The directory that holds the index.
  package let directory: URL
  /// The connection to `index.sqlite`.
  package let database: Database
  /// The download journal.
  package let transfers: TransferJournal
  /// The contents of the store.
  package let contents: ContentTable
  /// The entries of the file cache.
  package let cache: CacheTable
  /// What each file of each downloaded content must be (verify, repair).
  package let pieces: PieceTable

  /// Opens the index in `directory`, creating the directory (mode 0700) and the database as
  /// needed, and applies every feature's migrations. The database and its `-wal` and `-shm`
  /// files are readable by the user alone (mode 0600), those of an older store made so too.
  ///
  /// - Parameters:
  ///   - directory: A file URL of the store's directory.
  ///   - busyTimeout: How long a statement waits for another process's lock before it fails with
  ///     ``StoreError/Code-swift.struct/busy``.
  /// - Throws: ``StoreError/Code-swift.struct/cannotOpen`` when the directory cannot be created or
  ///   `index.sqlite` is a symbolic link (never followed: the database would be made where it
  ///   points, outside the store), ``StoreError/Code-swift.struct/notADatabase`` when
  ///   `index.sqlite` is some other file (it is left as it was), and any error of
  ///   ``Database/init(path:busyTimeout:)`` or the migrations.
  package init(directory: URL, busyTimeout: Duration = .seconds(5)) throws(StoreError) {
    let path = directory.appending(path: Self.fileName).path(percentEncoded: false)
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw StoreError(
        kind: .cannotOpen,
        message: "cannot create the directory \(directory.path(percentEncoded: false)): "
          + error.localizedDescription,
        sql: nil, path: path)
    }
    self.directory = directory
    guard !Self.isLink(path) else {
      throw StoreError(
        code: StoreError.symbolicLinkCode,
        message: "it is a symbolic link, which is never followed",
        path: path)
    }
    Self.makePrivate(path)
    self.database = try Database(path: path, busyTimeout: busyTimeout)
    Self.makePrivate(path)
    self.transfers = try TransferJournal(database: database)
    self.contents = try ContentTable(database: database)
    self.cache = try CacheTable(database: database)
    self.pieces = try PieceTable(database: database)
  }

  /// Creates the database file with mode 0600 before SQLite does (SQLite gives its `-wal`
  /// and `-shm` files the database's mode), and makes the three 0600 when they are there.
  private static func makePrivate(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    if fd >= 0 { close(fd) }
    for file in [path, path + "-wal", path + "-shm"] where !isLink(file) { chmod(file, 0o600) }
  }

  /// Whether a symbolic link is at `path`.
  static func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }
}
