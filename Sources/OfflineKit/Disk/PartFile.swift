import Foundation

/// The `.part` file a transfer writes into, with a write buffer in front of it.
///
/// Opened without following symbolic links (a link planted at the path is refused, never
/// written through) and only when it is a regular file. Body parts arrive in small pieces;
/// they are gathered into large writes so the kernel sees few system calls.
///
/// A part made with ``init(creatingOnFirstWrite:bufferSize:)`` is not created until bytes
/// leave its buffer (or ``create()`` asks for it): a piece of a stream whose whole body
/// fits in the buffer opens its file once, when it is complete.
///
/// Whole blocks go past the page cache where the platform allows it (``DirectWriter``);
/// what ends a write short of a block boundary goes through the page cache, and stays at
/// the start of the buffer (``carried``) so the next write starts on a boundary again and
/// covers that block whole. A part past ``largeFile`` whose buffer fills fast trades it for
/// one of ``largeBufferSize`` (``fitBufferToPace()``): the device takes a few large writes
/// faster than many small ones.
///
/// Not thread-safe: the owner calls it from one thread at a time.
final class PartFile {
  let path: String
  /// The open file; -1 while a part made to be created on its first write is not created.
  private(set) var descriptor: Int32
  /// Whether this closes ``descriptor`` when it goes (not when it writes through a lock's).
  private var ownsDescriptor: Bool
  private var buffer: UnsafeMutableRawBufferPointer
  /// Bytes in the buffer, ``carried`` ones included.
  private var buffered = 0
  /// Bytes at the buffer's start that are in the file already: the start of the block
  /// ``flushedLength`` ends in, kept so the next direct write starts on a block boundary.
  private var carried = 0
  /// Bytes handed to the kernel (they survive a crash of this process).
  private(set) var flushedLength: Int64
  /// Nil until the file is open.
  private var writeBehind: WriteBehind?
  /// The part's descriptor for whole blocks, opened on the first write of whole blocks.
  private var direct: DirectWrites = DirectWriter.isSupported ? .untried : .refused

  /// When the buffer last filled, for ``fitBufferToPace()``.
  private var lastFilled: ContinuousClock.Instant?
  /// The buffer's size as made, which a slowed-down part goes back to.
  private let smallBufferSize: Int

  /// A part past this many bytes may write through a buffer of ``largeBufferSize``.
  static let largeFile: Int64 = 4 << 20
  /// The buffer of a large, fast part written past the page cache.
  static let largeBufferSize = 1 << 20
  /// The longest a large buffer may take to fill and be kept: what a kill loses is what
  /// the buffer holds (`CrashResumeTests` allows 1 MiB a kill, socket buffers included).
  static let largeBufferFill = Duration.milliseconds(16)
  /// Called with the bytes of each write that reached the file and the offset they went to,
  /// in order, on the writer's thread (``TransferSink`` hashes them from here).
  var didWrite: ((UnsafeRawBufferPointer, Int64) -> Void)?
  /// Called with the descriptor when a part made to be created on its first write is
  /// created, on the writer's thread, before any byte is written to it.
  var didOpen: ((Int32) -> Void)?

  /// Whether the file is open (always, except for a part not created yet).
  var isOpen: Bool { descriptor >= 0 }

  /// Opens or creates the part file at `path`.
  convenience init(path: String, bufferSize: Int = PartBufferPool.size) throws(TransferFileError) {
    let fd = FileSteps.open(path, flags: O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw TransferFileError(.open, errno: errno, path: path) }
    do {
      try self.init(path: path, descriptor: fd, owns: true, bufferSize: bufferSize)
    } catch {
      close(fd)
      throw error
    }
  }

  /// Writes the part through `descriptor`, a regular file of `length` bytes open for reading
  /// and writing that its owner (a ``DestinationLock``, which checked both once it held the
  /// lock) keeps open longer than this and closes itself.
  init(
    path: String, borrowing descriptor: Int32, length: Int64, bufferSize: Int = PartBufferPool.size
  ) {
    self.path = path
    self.descriptor = descriptor
    self.ownsDescriptor = false
    self.flushedLength = length
    self.writeBehind = WriteBehind(descriptor: descriptor, from: length)
    self.buffer = PartBufferPool.take(count: bufferSize)
    self.smallBufferSize = bufferSize
  }

  /// A part at `path` that is created when its first bytes leave the buffer, for a
  /// transfer that has no bytes on disk to go on from (its journal holds no record of them)
  /// and whose folder's lock its owner holds: nothing else writes there, so there is nothing
  /// to look up before then. Whatever is at `path` when it is created (a part no record
  /// vouches for) is emptied first.
  init(creatingOnFirstWrite path: String, bufferSize: Int = PartBufferPool.size) {
    self.path = path
    self.descriptor = -1
    self.ownsDescriptor = true
    self.flushedLength = 0
    self.writeBehind = nil
    self.buffer = PartBufferPool.take(count: bufferSize)
    self.smallBufferSize = bufferSize
  }

  private convenience init(path: String, descriptor fd: Int32, owns: Bool, bufferSize: Int)
    throws(TransferFileError)
  {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw TransferFileError(.open, errno: EINVAL, path: path)
    }
    self.init(path: path, borrowing: fd, length: Int64(info.st_size), bufferSize: bufferSize)
    ownsDescriptor = owns
  }

  deinit {
    writeBehind?.drain()  // no write-back call may reach the descriptor's number after this
    direct = .refused  // closed before the descriptor it was opened through
    if ownsDescriptor, isOpen { close(descriptor) }
    PartBufferPool.give(buffer)
  }

  /// Every byte appended so far, including those still in the buffer.
  var length: Int64 { flushedLength + Int64(buffered - carried) }

  /// Whether appending `count` bytes makes the buffer write to the file.
  func fills(adding count: Int) -> Bool { buffered + count >= buffer.count }

  /// Appends bytes at the end, writing through when the buffer fills.
  func append(_ bytes: UnsafeRawBufferPointer) throws(TransferFileError) {
    var remaining = bytes
    while !remaining.isEmpty {
      let count = min(remaining.count, buffer.count - buffered)
      (buffer.baseAddress! + buffered).copyMemory(from: remaining.baseAddress!, byteCount: count)
      buffered += count
      remaining = UnsafeRawBufferPointer(rebasing: remaining[count...])
      // Write as soon as the buffer fills, not when the next bytes come: a server that
      // sends in bursts would otherwise leave a full buffer in memory while idle, lost to
      // a crash and fetched again.
      if buffered == buffer.count {
        try flush()
        fitBufferToPace()
      }
    }
  }

  /// Hands the buffered bytes to the kernel: the whole blocks past the page cache where it
  /// can (``DirectWriter``), the rest through it, starting their write-back every few
  /// megabytes (``WriteBehind``).
  func flush() throws(TransferFileError) {
    guard buffered > carried else { return }
    if !isOpen { try create() }
    defer { writeBehind?.wrote(upTo: flushedLength) }
    // The buffer's first byte belongs at this offset; bytes before `done` are in the file.
    let fileStart = flushedLength - Int64(carried)
    var done = carried
    let blocks = buffered / DirectWriter.blockSize * DirectWriter.blockSize
    if blocks > carried, fileStart % Int64(DirectWriter.blockSize) == 0,
      let direct = directWriter()
    {
      switch direct.write(UnsafeRawBufferPointer(rebasing: buffer[..<blocks]), at: fileStart) {
      case .wrote(let count) where count > 0:
        done = max(done, count)
      case .wrote, .refused:
        // Everything goes through the page cache from now on.
        self.direct = .refused
      case .failed(let code):
        throw TransferFileError(.write, errno: code, path: path)
      }
      reportWritten(from: carried, to: done, fileStart: fileStart)
    }
    while done < buffered {
      let wrote = pwrite(
        descriptor, buffer.baseAddress! + done, buffered - done, off_t(fileStart) + off_t(done))
      if wrote < 0, errno == EINTR { continue }
      guard wrote > 0 else {
        let code = wrote < 0 ? errno : EIO
        // Keep what did reach the file consistent with the buffer: drop the rest.
        keep(from: done)
        throw TransferFileError(.write, errno: code, path: path)
      }
      reportWritten(from: max(done, carried), to: done + wrote, fileStart: fileStart)
      done += wrote
    }
    keep(from: done)
  }

  /// Sets ``flushedLength`` past the buffer's bytes up to `end` and tells ``didWrite`` of
  /// those in `start..<end` (the new ones: the carried block is in the file already).
  private func reportWritten(from start: Int, to end: Int, fileStart: Int64) {
    guard end > start else { return }
    didWrite?(
      UnsafeRawBufferPointer(start: buffer.baseAddress! + start, count: end - start),
      fileStart + Int64(start))
    flushedLength = fileStart + Int64(end)
  }

  /// Drops the buffer's bytes before `done` (they are in the file) but the block
  /// ``flushedLength`` ends in, which the next direct write covers again; the bytes from
  /// `done` on move to the start.
  private func keep(from done: Int) {
    let tail = Int(flushedLength % Int64(DirectWriter.blockSize))
    let from = done == buffered && !direct.isRefused && tail <= done ? done - tail : done
    if from > 0 {
      buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + from, byteCount: buffered - from)
    }
    buffered -= from
    carried = done - from
  }

  /// Opens the descriptor for whole blocks on the first call; nil when it was refused.
  private func directWriter() -> DirectWriter? {
    if case .untried = direct {
      direct = DirectWriter(sameFileAs: descriptor).map(DirectWrites.open) ?? .refused
    }
    guard case .open(let writer) = direct else { return nil }
    return writer
  }

  /// After a full buffer was written: trades the default buffer for a large one when the
  /// part is large, written past the page cache, and filled it at a pace that fills the
  /// large one within ``largeBufferFill`` (a direct write waits for the device, which takes
  /// 1 MiB writes twice as fast as 128 KiB ones); back when a large one took four times
  /// that. A slow part keeps the small buffer, so a kill never loses more of it than before.
  private func fitBufferToPace() {
    let now = ContinuousClock.now
    defer { lastFilled = now }
    guard let lastFilled, case .open = direct, flushedLength >= Self.largeFile else { return }
    let took = now - lastFilled
    if buffer.count < Self.largeBufferSize,
      took * (Self.largeBufferSize / buffer.count) <= Self.largeBufferFill
    {
      resizeBuffer(to: Self.largeBufferSize)
    } else if buffer.count > smallBufferSize, took > Self.largeBufferFill * 4 {
      resizeBuffer(to: smallBufferSize)
    }
  }

  /// Moves the buffered bytes into a buffer of `count` bytes.
  private func resizeBuffer(to count: Int) {
    let resized = PartBufferPool.take(count: count)
    resized.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: buffered)
    PartBufferPool.give(buffer)
    buffer = resized
  }

  /// Cuts the file to `length` bytes, dropping anything buffered.
  ///
  /// A file that already has that length is left alone: on ext4 a truncation marks the file
  /// for writing back at `close` (the `auto_da_alloc` guard for truncate-and-rewrite), which
  /// made closing each fresh, still empty HLS piece wait for its blocks to be allocated. The
  /// file's length is ``flushedLength`` while its one writer (the holder of its
  /// ``DestinationLock``) writes it only through this, so that needs no `fstat` (each fresh
  /// piece of a stream made one, emptying its empty part for the body of a 200).
  func truncate(to length: Int64) throws(TransferFileError) {
    buffered = 0
    carried = 0
    if length == flushedLength {
      writeBehind?.cut(to: length)
      return
    }
    var info = stat()
    if fstat(descriptor, &info) == 0, Int64(info.st_size) == length {
      flushedLength = length
      writeBehind?.cut(to: length)
      return
    }
    guard ftruncate(descriptor, off_t(length)) == 0 else {
      throw TransferFileError(.truncate, errno: errno, path: path)
    }
    flushedLength = length
    writeBehind?.cut(to: length)
  }

  /// Flushes and waits until the data is on stable storage.
  func synchronize() throws(TransferFileError) {
    try flush()
    try create()
    guard Durability.syncData(descriptor) == 0 else {
      throw TransferFileError(.sync, errno: errno, path: path)
    }
  }

  /// The SHA-256 of the bytes waiting in the buffer of a part none of whose bytes are on
  /// disk, the whole body of a piece bound for a pack: checked before they are written
  /// anywhere (``moveBuffered(into:)``).
  func bufferedSHA256() -> String {
    precondition(!isOpen && flushedLength == 0, "a part with bytes on disk cannot be packed")
    let hasher = SHA256()
    hasher.update(UnsafeRawBufferPointer(start: buffer.baseAddress, count: buffered))
    return hasher.finalizeHex()
  }

  /// Writes the buffered bytes, the whole body of a part not created, into `pack` instead
  /// of a file of its own, and returns where they start there. ``didWrite`` sees them as
  /// the part's bytes from offset 0; the part stays uncreated and empty.
  func moveBuffered(into pack: PiecePack) throws(TransferFileError) -> Int64 {
    precondition(!isOpen && flushedLength == 0, "a part with bytes on disk cannot be packed")
    let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: buffered)
    let offset = try pack.write(bytes)
    didWrite?(bytes, 0)
    buffered = 0
    return offset
  }

  /// Creates a part made to be created on its first write, empty, now (a body of no bytes
  /// still needs a file to rename); nothing happens when it is open.
  ///
  /// The file is made with `O_EXCL`, so the common case (nothing at the path) costs one
  /// `open`. Its folder is made when the open finds none. Something already at the path is
  /// opened without following a link and without blocking on a FIFO, refused unless it is
  /// a regular file, and emptied: no record vouches for its bytes.
  func create() throws(TransferFileError) {
    guard !isOpen else { return }
    let fd: Int32
    do {
      fd = try FileSteps.openMakingFolder(
        path, flags: O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)
    } catch {
      guard error.errno == EEXIST else { throw error }
      fd = try FileSteps.openMakingFolder(
        path, flags: O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      let info = try FileSteps.regularFile(fd, at: path)
      guard info.st_size == 0 || ftruncate(fd, 0) == 0 else {
        let code = errno
        close(fd)
        throw TransferFileError(.truncate, errno: code, path: path)
      }
    }
    descriptor = fd
    writeBehind = WriteBehind(descriptor: fd, from: flushedLength)
    didOpen?(fd)
  }
}

/// Whether a part writes whole blocks past the page cache.
private enum DirectWrites {
  /// Not asked yet: nothing was written in whole blocks.
  case untried
  /// Whole blocks go through this writer.
  case open(DirectWriter)
  /// The platform or the file system refused: everything goes through the page cache.
  case refused

  /// Whether everything goes through the page cache.
  var isRefused: Bool {
    if case .refused = self { return true }
    return false
  }
}
