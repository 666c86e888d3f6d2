import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore
import Synchronization

/// Receives the responses of one transfer: asks the state machine what each head means,
/// writes the body into the part file, tells the hashes how far it wrote, and checkpoints
/// the journal.
///
/// `@unchecked Sendable` is sound because the mutable members are touched by one thread at a
/// time: the transfer's task before and after each request (its last write on a thread of
/// ``DeviceWaits`` while the task waits for it), and during a request the transport's
/// delivery queue for it (one callback at a time, not the network thread); the request's
/// completion orders the two. Only `progressBytes` is read from other threads, and it is
/// atomic; ``hashes`` has its own lock.
final class TransferSink: HTTPResponseDelegate, @unchecked Sendable {
  var machine: TransferStateMachine
  let part: PartFile
  /// The file's SHA-256 and its chunk digests (``ChunkDigests``), read back from the part
  /// behind the writer on a queue of their own (``HashBehind``), so the body callback only
  /// writes; a small file's bytes are hashed as the part writes them. Either hasher is nil
  /// when the transfer does not compute it.
  let hashes: HashBehind
  let checkpointer: DurableCheckpointer
  private let journal: TransferJournal
  /// The journal record as this sink means it (or as the transfer found it): written, or
  /// pending while ``recordPending``. Only the checkpointer writes the record meanwhile, and
  /// only its durable offset.
  private(set) var record: TransferRecord
  /// Whether ``record`` holds validators the journal has not heard of yet.
  private(set) var recordPending = false
  private let checkpointInterval: Duration

  /// The decision for the last head received, nil before a head arrives.
  private(set) var headAction: TransferStateMachine.HeadAction?
  /// The last head received.
  private(set) var lastHead: HTTPResponseHead?
  /// A failure while acting on a head (emptying the part, saving validators).
  private(set) var headFailure: (any Error & Sendable)?
  /// Body bytes written by this run, for progress; readable from any thread.
  let progressBytes = Atomic<Int64>(0)
  /// The complete length once known, -1 before; readable from any thread.
  let progressTotal = Atomic<Int64>(-1)
  /// A start-over decided during a request that the transfer has not reported yet.
  let pendingRestart = Locked<TransferStateMachine.RestartReason?>(nil)
  /// Body bytes written since this sink was made, start-overs included.
  private(set) var bytesReceived: Int64 = 0
  /// Body bytes still to skip before the slice starts (a 200 to a slice request).
  private var skipRemaining: Int64 = 0
  /// Set when a slice transfer has every byte it wanted and stopped the body.
  private(set) var sliceCompleted = false
  /// Set when a 206 sent more bytes than its `Content-Range` names: the body was stopped at
  /// the range's end, and what came after was not written.
  private(set) var rangeOverran = false
  private var lastCheckpoint: ContinuousClock.Instant
  /// Starts live progress reports once the request has received for a while; nil once called.
  private var progressStarter: (@Sendable () -> Void)?
  private var progressStartsAt: ContinuousClock.Instant
  /// What checkpoint and progress intervals are measured with.
  private let clock: any Timekeeping
  /// Whether a first answer that is or names a Metalink stops the transfer
  /// (``Transfer/Configuration/stopsAtMetalink``); set before the first request.
  var stopsAtMetalink = false
  /// The Metalink the answer was or named, when it stopped the transfer for it.
  private(set) var metalink: URL?

  init(
    machine: TransferStateMachine, part: PartFile, hasher: SHA256?, journal: TransferJournal,
    record: TransferRecord, checkpointInterval: Duration,
    clock: any Timekeeping = SystemClock.shared, chunks: ChunkHasher? = nil
  ) {
    self.clock = clock
    lastCheckpoint = clock.instant
    progressStartsAt = clock.instant
    self.machine = machine
    self.part = part
    // Where the platform writes past the page cache there is nothing to read back. (A file
    // system that refuses direct writes still has its bytes hashed from memory, on the
    // writer's thread: the part learns that on its first write, after the first bytes.)
    let hashes = HashBehind(
      descriptor: part.descriptor, from: 0, whole: hasher, chunks: chunks,
      fromMemory: DirectWriter.isSupported)
    self.hashes = hashes
    if hashes.isHashing {
      part.didWrite = { bytes, offset in hashes.hashWritten(bytes, at: offset) }
      part.didOpen = { descriptor in hashes.adopt(descriptor: descriptor) }
    }
    self.journal = journal
    self.record = record
    self.checkpointInterval = checkpointInterval
    self.checkpointer = DurableCheckpointer(
      journal: journal, destination: record.destination,
      bootID: BootIdentity.current)
    progressBytes.store(machine.offset, ordering: .relaxed)
    progressTotal.store(machine.totalLength ?? -1, ordering: .relaxed)
  }

  /// Has `start` called from the body callbacks when the next request is still receiving its
  /// body `delay` from now, so a short request never starts a progress task.
  func startProgress(after delay: Duration, _ start: @escaping @Sendable () -> Void) {
    progressStartsAt = clock.instant + delay
    progressStarter = start
  }

  /// Prepares for the next request.
  func willSendRequest() {
    headAction = nil
    lastHead = nil
    headFailure = nil
    skipRemaining = 0
    sliceCompleted = false
    rangeOverran = false
  }

  /// Thrown from a body callback to stop a 206 at the end of its `Content-Range`.
  struct RangeOverrun: Error {}

  /// Thrown from a body callback to stop a response once the slice is complete.
  struct SliceComplete: Error {}

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    lastHead = head
    if stopsAtMetalink, machine.offset == 0, let document = MetalinkPlan.describing(head) {
      metalink = document
      return .stop
    }
    let action = machine.didReceiveHead(head)
    headAction = action
    progressTotal.store(machine.totalLength ?? -1, ordering: .relaxed)
    switch action {
    case .append:
      saveValidators()
      return headFailure == nil ? .receive : .stop
    case .writeSlice(let skip, let reason):
      skipRemaining = skip
      return startOver(reason)
    case .writeFromStart(let reason):
      return startOver(reason)
    case .discardThenVerify, .discardThenRestart:
      return .discard
    case .fail, .failProtocol:
      return .stop
    }
  }

  func didReceiveBodyPart(_ received: UnsafeRawBufferPointer) throws {
    if let start = progressStarter, clock.instant >= progressStartsAt {
      progressStarter = nil
      start()
    }
    var bytes = received
    if skipRemaining > 0 {
      let skipped = Int(min(Int64(bytes.count), skipRemaining))
      skipRemaining -= Int64(skipped)
      bytes = UnsafeRawBufferPointer(rebasing: bytes[skipped...])
    }
    if let slice = machine.slice {
      let wanted = Int(max(0, min(Int64(bytes.count), slice.length - machine.offset)))
      bytes = UnsafeRawBufferPointer(rebasing: bytes[..<wanted])
    }
    var overran = false
    if let limit = machine.writeLimit, machine.offset + Int64(bytes.count) > limit {
      let wanted = Int(max(0, limit - machine.offset))
      bytes = UnsafeRawBufferPointer(rebasing: bytes[..<wanted])
      overran = true
    }
    defer { if overran { rangeOverran = true } }
    if overran, bytes.isEmpty { throw RangeOverrun() }
    guard !bytes.isEmpty else {
      try stopIfSliceComplete()
      return
    }
    if recordPending, part.fills(adding: bytes.count) { try writePendingRecord() }
    try part.append(bytes)
    try hashes.wrote(upTo: part.flushedLength)
    machine.didWrite(bytes.count)
    bytesReceived += Int64(bytes.count)
    progressBytes.store(machine.offset, ordering: .relaxed)
    if overran { throw RangeOverrun() }
    try stopIfSliceComplete()
    // The clock is read on every part (a vDSO call, about 25 ns: nothing beside a 16 KiB
    // copy), so a slow body is checkpointed once a second like a fast one. Read every 32
    // parts, a piece arriving in 20 parts a second had nothing on disk for 1.6 s.
    let now = clock.instant
    if now - lastCheckpoint >= checkpointInterval {
      lastCheckpoint = now
      try writePendingRecord()
      try part.flush()
      if part.isOpen {
        checkpointer.requestCheckpoint(upTo: part.flushedLength, descriptor: part.descriptor)
      }
    }
  }

  private func stopIfSliceComplete() throws {
    guard let slice = machine.slice, machine.offset >= slice.length else { return }
    sliceCompleted = true
    throw SliceComplete()
  }

  /// Empties the part and records the new validators before the body's first byte.
  private func startOver(_ reason: TransferStateMachine.RestartReason?) -> HTTPBodyDisposition {
    pendingRestart.withLock { $0 = reason }
    do {
      try emptyPart()
      saveValidators()
    } catch {
      headFailure = error
    }
    return headFailure == nil ? .receive : .stop
  }

  /// Empties the part and forgets its checksum, for a start-over.
  func emptyPart() throws(TransferFileError) {
    _ = checkpointer.drain()  // no checkpoint of the old bytes may land after this
    hashes.restart(from: 0)  // no read of the old bytes is in flight after this
    try part.truncate(to: 0)
    progressBytes.store(0, ordering: .relaxed)
  }

  /// Notes the validators and length the bytes of this response belong to. The journal hears
  /// of them in ``writePendingRecord()``, just before the first of those bytes leaves the
  /// buffer for the part, so it never pairs the part's bytes with validators they do not
  /// belong to. A body that never leaves the buffer before ``Transfer/finish`` (a small
  /// file) gets no write of its own: `finish` records it with its last state. The write was
  /// made here, on the network thread (before delegates had a queue of their own), which
  /// stalled every other transfer for the length of a transaction (15-20 % of a queue of
  /// 1000 small files).
  private func saveValidators() {
    record.etag = machine.validators.etag
    record.lastModified = machine.validators.lastModified
    record.totalLength = machine.totalLength
    record.contentEncoding = machine.encoding
    record.durableOffset = min(record.durableOffset, machine.offset)
    record.bootID = BootIdentity.current
    recordPending = true
  }

  /// Writes the record noted at the head, if it is not written yet. A failure stops the
  /// transfer (``headFailure``) before any byte it would describe is written.
  func writePendingRecord() throws(StoreError) {
    guard recordPending else { return }
    do {
      try journal.save(record)
      recordPending = false
    } catch {
      headFailure = error
      throw error
    }
  }

  /// Hands the buffered bytes to the part, their record first; for a request that ends.
  func flushPart() throws {
    if part.length > part.flushedLength { try writePendingRecord() }
    try part.flush()
  }

  /// Tells the sink that the transfer wrote a later record, which replaces the pending one.
  func recordWritten(_ written: TransferRecord) {
    record = written
    recordPending = false
  }
}
