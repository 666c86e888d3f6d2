import Dispatch
import Foundation

/// Hashes the bytes of a part file behind its writer, on a queue of its own: the thread that
/// receives the body only writes, and the hashes read back (from the page cache) exactly the
/// bytes that are in the file. One read feeds every hasher: the file's, the chunk digests'
/// and a Metalink's pieces' (``pieces``), so a piece is checked without reading it again. The first ``batch`` bytes of a file written from its start
/// are hashed from the writer's own buffer as they reach the file instead
/// (``hashWritten(_:at:)``): a small file (a stream's piece) is never read back. So is every
/// byte of a part written past the page cache (``DirectWriter``; `fromMemory`), whose
/// writer's thread has the time the copy into the page cache took.
///
/// The writer says how far the file holds its bytes in order (``wrote(upTo:)``, after each
/// write that reached the kernel); once at least ``batch`` bytes wait, a worker on the queue
/// reads them with `pread` in blocks of ``blockSize`` and feeds the file's hasher and the
/// chunk hasher. The writer waits (so the body is held back, as for a slow disk) while more
/// than ``maximumLag`` of its bytes wait for the worker: memory stays one read buffer, and
/// the bytes are still in the page cache when they are read. ``finish()`` hashes the rest on
/// the caller's thread (a small file never starts the worker), after which the hashers may
/// be read.
///
/// When both hashers run on a file hashed from its first byte, the first chunk is not hashed
/// twice: its digest is the file's hasher as it stood at the chunk's end (a copy of it,
/// ``SHA256/copy()``), so a file of one chunk, every small file, costs one SHA-256 pass, not
/// two (the second pass was 4 % of the CPU of a queue of 1000 files of 100 KiB).
///
/// Before, both SHA-256s ran inside the sink's body callback, on the transport's delivery
/// queue for the request: two passes over every byte on the thread that also writes it, so
/// `get --sha256` went from 1.67x to 2.02x curl's wall time when chunk digests came (issue 15).
///
/// `@unchecked Sendable` is sound because ``State`` is touched only under `condition`'s
/// lock, `noted` only by the writer (one call at a time, as documented), and the hashers and
/// the read buffer belong to the worker while `state.running` is set and to the caller
/// otherwise: the caller touches them only after waiting, under the lock, for `running` to be
/// false (``finish()``, ``restart(from:)``, ``stop()``), and the worker clears `running` under
/// the lock after its last use of them.
final class HashBehind: @unchecked Sendable {
  /// Bytes that wait before the worker is started.
  static let batch: Int64 = 2 << 20
  /// Bytes the writer may be ahead of the worker before it waits.
  static let maximumLag: Int64 = 32 << 20
  /// Bytes read at a time.
  static let blockSize = 256 << 10

  private struct State {
    /// The bytes from `start` up to here are in the file.
    var written: Int64
    /// The bytes from `start` up to here are hashed.
    var hashed: Int64
    /// Bytes below this were in the file before the writer began (a resume): waiting for
    /// their hashing does not hold the writer back.
    var floor: Int64
    /// Whether a worker item is queued or running.
    var running = false
    /// Bumped by ``restart(from:)`` and ``stop()``: a worker of an older generation stops
    /// after its block.
    var generation = 0
    /// Set by ``stop()``: nothing more is read.
    var stopped = false
    /// The read that failed; nothing more is hashed after it.
    var failure: TransferFileError?
  }

  /// The file's SHA-256, nil when it is not computed.
  let whole: SHA256?
  /// The chunk digests, nil when they are not computed.
  let chunks: ChunkHasher?
  /// The pieces of a file with piece hashes, each told as its last byte is read back; nil
  /// when none are checked.
  let pieces: BlockHasher?
  /// The file read back; -1 until a part created on its first write is created
  /// (``adopt(descriptor:)``), which is before any of its bytes is noted as written.
  private var descriptor: Int32
  private let condition = NSCondition()
  private var state: State
  private let queue = DispatchQueue(label: "OfflineKit.hashBehind")
  private var buffer: UnsafeMutableRawBufferPointer?
  /// Whether the first chunk's digest is taken from ``whole`` (see the type's summary):
  /// both hashers run, from byte 0. Bytes are always fed in order from there.
  private let sharesFirstChunk: Bool
  /// The highest end the writer noted: a call that does not pass it takes no lock (most body
  /// parts stay in the part's buffer and do not move the end).
  private var noted: Int64

  /// Whether every byte the writer writes in order is hashed from its memory, however large
  /// the file (see ``hashWritten(_:at:)``).
  private let hashesWritesFromMemory: Bool
  /// Bytes that wait before the worker is started: ``batch``, or a piece's length when
  /// that is shorter, so each piece is checked as soon as it is written, as it was when its
  /// check read it again (a slow request would otherwise have its pieces checked only at
  /// its end, and a kill before then lost every check it would have journalled).
  private let startsAfter: Int64

  /// Hashes the file open at `descriptor` from byte `start` on (the first byte the writer
  /// writes, or 0 for a resume whose earlier bytes the hashers must see too).
  ///
  /// - Parameters:
  ///   - pieces: Fed the same bytes as `chunks` (a range's pieces, ``RangeSink``).
  ///   - fromMemory: Whether the writer's bytes are hashed from its memory past the
  ///     first ``batch`` too: for a writer whose bytes go past the page cache
  ///     (``DirectWriter``), where reading them back would read the device, and whose
  ///     thread no longer copies them into the page cache.
  init(
    descriptor: Int32, from start: Int64, whole: SHA256?, chunks: ChunkHasher?,
    pieces: BlockHasher? = nil, fromMemory: Bool = false
  ) {
    self.hashesWritesFromMemory = fromMemory
    self.descriptor = descriptor
    self.whole = whole
    self.chunks = chunks
    self.pieces = pieces
    self.startsAfter = min(Self.batch, pieces?.blockSize ?? Self.batch)
    self.sharesFirstChunk = whole != nil && chunks != nil && start == 0
    self.state = State(written: start, hashed: start, floor: start)
    self.noted = start
  }

  deinit {
    buffer?.deallocate()
  }

  /// Reads the file back through `descriptor` from now on: the part this hashes was created
  /// just now, on its first write (``PartFile/init(creatingOnFirstWrite:bufferSize:)``),
  /// before any of its bytes were noted. Called by the one writer.
  func adopt(descriptor: Int32) {
    condition.lock()
    defer { condition.unlock() }
    self.descriptor = descriptor
  }

  /// Whether there is anything to hash.
  var isHashing: Bool { whole != nil || chunks != nil || pieces != nil }

  /// How far the bytes are hashed now (the worker may be moving it).
  var hashedLength: Int64 {
    condition.lock()
    defer { condition.unlock() }
    return state.hashed
  }

  /// Notes that the file holds its bytes in order up to `end` (a later call never lowers
  /// it). Starts the worker when ``batch`` bytes wait; waits while the writer is more than
  /// ``maximumLag`` ahead of it. Called by the one writer, one call at a time.
  ///
  /// - Throws: ``TransferFileError`` when reading the file back failed.
  func wrote(upTo end: Int64) throws(TransferFileError) {
    guard isHashing, end > noted else { return }
    noted = end
    condition.lock()
    defer { condition.unlock() }
    if let failure = state.failure { throw failure }
    guard !state.stopped, end > state.written else { return }
    state.written = end
    if !state.running, state.written - state.hashed >= startsAfter {
      state.running = true
      let generation = state.generation
      queue.async { [self] in work(generation: generation) }
    }
    while state.running, state.failure == nil,
      state.written - max(state.hashed, state.floor) > Self.maximumLag
    {
      condition.wait()
    }
  }

  /// Hashes `bytes`, which the writer has just written at `offset`, from memory, when they
  /// are the next bytes to hash and the file stays below ``batch``: no worker runs then, nor
  /// would one start, so reading them back would only cost a `pread` and a read buffer (each
  /// piece of a stream paid both, in ``finish()``). A writer made `fromMemory` has every
  /// byte it writes in order hashed here, past ``batch`` too. Otherwise nothing happens here
  /// and ``wrote(upTo:)`` has them read back from the file as before: bytes an earlier run
  /// wrote (a resume, until the worker caught up with the writer), or a large file written
  /// through the page cache, whose hashing stays off the writer's thread. Called by the
  /// one writer, one call at a time, once the bytes reached the file; the hashes then cover
  /// exactly the file's bytes, in order.
  func hashWritten(_ bytes: UnsafeRawBufferPointer, at offset: Int64) {
    let end = offset + Int64(bytes.count)
    guard isHashing, !bytes.isEmpty, offset == noted, end <= Self.batch || hashesWritesFromMemory
    else { return }
    condition.lock()
    defer { condition.unlock() }
    guard !state.stopped, state.failure == nil, !state.running, state.hashed == offset,
      state.written == offset
    else { return }
    feed(bytes, at: offset)
    state.hashed = end
    state.written = end
    noted = end
  }

  /// Notes that the file held its bytes in order up to `end` before this writer began (the
  /// part a resume appends to): they are hashed too, without holding the writer back.
  func found(upTo end: Int64) throws(TransferFileError) {
    guard isHashing else { return }
    condition.lock()
    state.floor = max(state.floor, end)
    condition.unlock()
    try wrote(upTo: end)
  }

  /// Hashes every byte noted so far (the rest on this thread) and waits for the worker;
  /// the hashers then hold every byte from `start` up to the last ``wrote(upTo:)``.
  ///
  /// - Throws: ``TransferFileError`` when reading the file back failed.
  func finish() throws(TransferFileError) {
    guard isHashing else { return }
    condition.lock()
    defer { condition.unlock() }
    waitForWorker()
    if let failure = state.failure { throw failure }
    guard !state.stopped else { return }
    while state.hashed < state.written {
      let range = state.hashed..<min(state.written, state.hashed + Int64(Self.blockSize))
      do {
        try hash(range)
      } catch {
        state.failure = error
        throw error
      }
      state.hashed = range.upperBound
    }
  }

  /// Records the first chunk's digest for a file that ends inside it, at `length`, once
  /// every one of its bytes is hashed (``finish()``): it is the file's own digest, taken
  /// from a copy of ``whole`` so the file's hasher may still be read. A file that reached
  /// the chunk's end had it recorded then; nothing happens when the hashers do not share it.
  func recordFirstChunk(atLength length: Int64) {
    guard sharesFirstChunk, let whole, let chunks, length > 0,
      length < ChunkDigests.chunkSize
    else { return }
    condition.lock()
    defer { condition.unlock() }
    guard !state.running, state.failure == nil, state.hashed == length else { return }
    chunks.digests.record(0, sha256: whole.copy().finalizeHex())
  }

  /// Forgets every byte hashed and starts again at `start` (the part was emptied): waits
  /// until no read is in flight, then resets the hashers.
  func restart(from start: Int64) {
    guard isHashing else { return }
    condition.lock()
    defer { condition.unlock() }
    state.generation += 1
    waitForWorker()
    whole?.reset()
    chunks?.reset()
    pieces?.reset()
    noted = start
    state.written = start
    state.hashed = start
    state.floor = start
    state.failure = nil
  }

  /// Stops hashing: when this returns, nothing reads the file any more (it may be closed).
  func stop() {
    guard isHashing else { return }
    condition.lock()
    defer { condition.unlock() }
    state.generation += 1
    state.stopped = true
    waitForWorker()
  }

  /// Waits, holding the lock, until no worker item is queued or running.
  private func waitForWorker() {
    while state.running { condition.wait() }
  }

  // MARK: - On the queue

  /// Hashes block after block until the worker has caught up with the writer, a read
  /// failed, or a restart or stop made its generation old.
  private func work(generation: Int) {
    condition.lock()
    defer {
      state.running = false
      condition.broadcast()
      condition.unlock()
    }
    while state.generation == generation, state.failure == nil, state.hashed < state.written {
      let range = state.hashed..<min(state.written, state.hashed + Int64(Self.blockSize))
      condition.unlock()
      var failure: TransferFileError?
      do {
        try hash(range)
      } catch {
        failure = error
      }
      condition.lock()
      if let failure {
        state.failure = failure
      } else {
        state.hashed = range.upperBound
      }
      condition.broadcast()
    }
  }

  /// Feeds `bytes`, the file's bytes at `offset` (the next ones to hash), to the hashers;
  /// while the hashers share the first chunk, its bytes go to ``whole`` alone, and its
  /// digest is recorded from a copy of ``whole`` when its last byte arrives. ``pieces`` sees
  /// every byte. Only the owner of the hashers calls it.
  private func feed(_ bytes: UnsafeRawBufferPointer, at offset: Int64) {
    pieces?.update(bytes, at: offset)
    let size = ChunkDigests.chunkSize
    guard sharesFirstChunk, offset < size, let whole, let chunks else {
      whole?.update(bytes)
      chunks?.update(bytes, at: offset)
      return
    }
    let first = Int(min(offset + Int64(bytes.count), size) - offset)
    whole.update(UnsafeRawBufferPointer(rebasing: bytes[..<first]))
    guard offset + Int64(first) == size else { return }
    chunks.digests.record(0, sha256: whole.copy().finalizeHex())
    let rest = UnsafeRawBufferPointer(rebasing: bytes[first...])
    whole.update(rest)
    chunks.update(rest, at: size)
  }

  /// Reads `range` of the file and feeds it to the hashers. Only the owner of the hashers
  /// calls it (the worker while running, else the caller holding the lock).
  private func hash(_ range: Range<Int64>) throws(TransferFileError) {
    let buffer = self.buffer ?? .allocate(byteCount: Self.blockSize, alignment: 4096)
    self.buffer = buffer
    var position = range.lowerBound
    while position < range.upperBound {
      let want = Int(range.upperBound - position)
      let got = pread(descriptor, buffer.baseAddress, want, off_t(position))
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { throw TransferFileError(.read, errno: got < 0 ? errno : EIO) }
      feed(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), at: position)
      position += Int64(got)
    }
  }
}
