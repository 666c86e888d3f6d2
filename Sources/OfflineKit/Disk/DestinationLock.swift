import Foundation

/// The one writer of a destination: an exclusive `flock(2)` on its `.part` file, taken before
/// anything reads or writes the part and held until the transfer ends.
///
/// Two processes (or two stores, or two transfers in one process) that download to the same
/// path would otherwise share one part file: one empties it for a restart while the other
/// appends at its own offset, and the file renamed into place has holes. The lock is on the
/// part file itself, so it costs no extra file. A lock taken on a part that another writer
/// renamed into place (or removed) meanwhile is on the wrong file: the path is checked to
/// still name the locked inode, and the lock is taken again on the new part when it does not.
///
/// The lock is advisory: it keeps OfflineKit writers apart, not other programs.
final class DestinationLock: Sendable {
  /// The locked part file.
  let partPath: String
  /// The locked file, open for reading and writing: the transfer's first attempt writes the
  /// part through it (``PartFile/init(path:borrowing:length:bufferSize:)``) instead of opening it
  /// again. Closed by the lock alone.
  let descriptor: Int32
  /// The part's length when the lock was taken (read after the lock, so no other writer
  /// changes it before this one writes): the first attempt starts from it without a stat.
  let partLength: Int64
  /// For a stream's folder made by this lock: removed at the end when still empty (a stream
  /// refused before anything was written leaves no folder behind).
  private let removesEmptyFolder: Bool

  private init(
    partPath: String, descriptor: Int32, partLength: Int64 = 0, removesEmptyFolder: Bool = false
  ) {
    self.partPath = partPath
    self.descriptor = descriptor
    self.partLength = partLength
    self.removesEmptyFolder = removesEmptyFolder
  }

  deinit {
    // `rmdir` removes only an empty folder; still under the lock, so no writer of ours is in it.
    if removesEmptyFolder { rmdir(partPath) }
    close(descriptor)
  }

  /// How often a waiting writer tries the lock again.
  static let pollInterval: Duration = .milliseconds(100)

  /// How many times a writer that does not wait tries a held lock again, ``gracePause``
  /// apart, before it says another writer holds it. A process this one starts (`ffmpeg`,
  /// say, from another task) holds a copy of every descriptor from its fork until its
  /// `exec` closes them, the lock's among them: a run started just after another ended was
  /// refused as "another process" writing (seen in CI while tests started programs).
  static let graceTurns = 25
  /// The pause between those tries.
  static let gracePause: Duration = .milliseconds(10)

  /// Locks the part at `partPath`, creating it (and its folder) when missing.
  ///
  /// The part is opened first and its folder made only when the open says it is missing
  /// (or not a folder, for the error's sake): a folder checked before every open cost each
  /// piece of a stream two stats and Foundation's own before its `mkdir`, in a folder that
  /// is there for all but the first piece.
  ///
  /// - Parameter waits: whether to wait while another writer holds it (polling, so the wait
  ///   ends when the task is cancelled); otherwise it fails at once.
  /// - Throws: ``Transfer/Error/Code-swift.struct/destinationBusy`` naming the other writer,
  ///   ``Transfer/Error/Code-swift.struct/file`` when the part cannot be opened (a symbolic link or
  ///   something other than a regular file at its path), or `.canceled`.
  static func acquire(for transfer: Transfer, waits: Bool) async throws(Transfer.Error)
    -> DestinationLock
  {
    let partPath = transfer.partPath
    // Each turn without a wait means the part was renamed or removed under us: bounded.
    var turnsWithoutWait = 0
    var graceLeft = graceTurns
    while true {
      let fd = try transfer.fileStep { () throws(TransferFileError) in try openPart(partPath) }
      if flock(fd, LOCK_EX | LOCK_NB) == 0 {
        // Checked once the lock is held: before it, another writer could still add bytes.
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
          close(fd)
          throw transfer.failure(.file(TransferFileError(.open, errno: EINVAL, path: partPath)))
        }
        if names(partPath, info) {
          return DestinationLock(
            partPath: partPath, descriptor: fd, partLength: Int64(info.st_size))
        }
        close(fd)
        turnsWithoutWait += 1
        if turnsWithoutWait > 1000 {
          throw transfer.failure(.file(TransferFileError(.open, errno: EAGAIN, path: partPath)))
        }
        continue
      }
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(fd)
        throw transfer.failure(.file(TransferFileError(.open, errno: code, path: partPath)))
      }
      guard waits || graceLeft > 0 else {
        let holder = LockHolder.find(lockedFile: fd)
        close(fd)
        throw transfer.failure(.destinationBusy(holder))
      }
      close(fd)
      graceLeft -= 1
      do {
        try await Task.sleep(for: waits ? pollInterval : gracePause)
      } catch {
        throw transfer.failure(.canceled)
      }
    }
  }

  /// Locks the folder of a stream (a `flock` on the folder itself, which is never renamed),
  /// so two downloads of one stream into one folder never run at once; its pieces then need
  /// no lock of their own (``Transfer/destinationIsInLockedFolder``). A folder this makes is
  /// removed when the lock ends with nothing in it; a lock taken on a folder that the writer
  /// this one waited for removed so is taken again on a folder made anew.
  ///
  /// - Throws: ``Transfer/Error/Code-swift.struct/destinationBusy`` naming the other writer when it
  ///   does not wait, `.file` when the folder cannot be made or opened, or `.canceled`.
  static func acquire(folder: String, for url: URL, waits: Bool) async throws(Transfer.Error)
    -> DestinationLock
  {
    func failure(_ kind: Transfer.Error.Kind) -> Transfer.Error {
      Transfer.Error(kind, url: url, destination: folder)
    }
    var turnsWithoutWait = 0
    var graceLeft = graceTurns
    while true {
      let made = !FileSteps.exists(folder)
      do {
        try FileSteps.createFolder(folder)
      } catch {
        throw failure(.file(error))
      }
      // A link to a folder is the folder the user chose; the pieces inside are ours.
      let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard fd >= 0 else {
        throw failure(.file(TransferFileError(.open, errno: errno, path: folder)))
      }
      if flock(fd, LOCK_EX | LOCK_NB) == 0 {
        var locked = stat()
        var named = stat()
        guard fstat(fd, &locked) == 0, stat(folder, &named) == 0,
          locked.st_ino == named.st_ino, locked.st_dev == named.st_dev
        else {
          // Removed (empty) by the writer this one waited for: lock the folder there now.
          close(fd)
          turnsWithoutWait += 1
          if turnsWithoutWait > 1000 {
            throw failure(.file(TransferFileError(.open, errno: EAGAIN, path: folder)))
          }
          continue
        }
        // No empty part to clean up: the path names a folder, never a regular file.
        return DestinationLock(partPath: folder, descriptor: fd, removesEmptyFolder: made)
      }
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR, waits || graceLeft > 0 else {
        let holder = code == EWOULDBLOCK ? LockHolder.find(lockedFile: fd) : nil
        close(fd)
        if code != EWOULDBLOCK, code != EINTR {
          throw failure(.file(TransferFileError(.open, errno: code, path: folder)))
        }
        throw failure(.destinationBusy(holder))
      }
      close(fd)
      graceLeft -= 1
      do {
        try await Task.sleep(for: waits ? pollInterval : gracePause)
      } catch {
        throw failure(.canceled)
      }
    }
  }

  /// Ends the lock, now. An empty part (nothing was written, or the file was renamed into
  /// place and this path is an empty file a waiting writer made) is removed first, while the
  /// lock still keeps others out. The descriptor stays open until this value is freed, so
  /// nothing that borrowed it can write through a number reused for another file.
  ///
  /// The lock used to end only when the value was freed, and a task that had captured it
  /// (the single connection of an adaptive transfer) could free it after the transfer had
  /// returned: a run started at once after a stopped one was then refused as another
  /// process writing the file.
  func release() {
    if Self.namesSameFile(partPath, descriptor), FileSteps.regularFileSize(partPath) == 0 {
      FileSteps.unlink(partPath)
    }
    flock(descriptor, LOCK_UN)
  }

  /// Opens (creating when missing, with its folder) the part without following links and
  /// without blocking on a FIFO; for writing too, so it is opened once.
  private static func openPart(_ path: String) throws(TransferFileError) -> Int32 {
    try FileSteps.openMakingFolder(
      path, flags: O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
  }

  /// Whether `path` names the file whose `fstat` is `open` (it was not renamed or removed).
  private static func names(_ path: String, _ open: stat) -> Bool {
    var named = stat()
    guard FileSteps.lstat(path, &named) == 0 else { return false }
    return open.st_ino == named.st_ino && open.st_dev == named.st_dev
  }

  /// Whether `path` still names the file open at `fd` (it was not renamed or removed).
  private static func namesSameFile(_ path: String, _ fd: Int32) -> Bool {
    var open = stat()
    guard fstat(fd, &open) == 0 else { return false }
    return names(path, open)
  }
}
