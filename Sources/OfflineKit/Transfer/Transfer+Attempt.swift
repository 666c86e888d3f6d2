import Foundation
import OfflineHTTP
import OfflineStore

extension Transfer {
  /// One attempt: open the part, work out where it stands, and request until the file is
  /// whole or a request fails. `received` counts body bytes that arrived, even on failure.
  /// `record` is the journal's record when the caller has just read it (`.some(nil)`: none).
  /// `restarts` counts the start-overs after contradictions in this run, across attempts, so
  /// a server that contradicts itself on every response runs out of them. `lock` is the
  /// destination's lock when it was taken just before this attempt: its part is written.
  func attempt(
    onEvent: @escaping @Sendable (Event) -> Void, received: inout Int64,
    restarts: inout Int, record: TransferRecord?? = nil, lock: DestinationLock? = nil
  ) async throws(Transfer.Error) -> Outcome {
    let sink = try openSink(onEvent: onEvent, record: record, restarts: restarts, lock: lock)
    defer {
      restarts = sink.machine.restarts
      _ = sink.checkpointer.drain()
      try? sink.flushPart()
      sink.hashes.stop()  // nothing reads the part once the sink is left
    }
    while true {
      var request = request()
      switch sink.machine.start() {
      case .verify:
        return try await finish(sink, onEvent: onEvent)
      case .requestWhole(let discarding):
        if let discarding {
          try emptyPart(sink, reason: discarding, onEvent: onEvent)
        }
      case .requestRange(let offset, let ifRange):
        // The bytes an earlier run wrote are hashed behind, while the request goes out.
        try fileStep { () throws(TransferFileError) in try sink.primeHashes(length: offset) }
        request.headers.add(name: "Range", value: "bytes=\(offset)-")
        request.headers.add(name: "If-Range", value: ifRange)
      case .requestSlice(let first, let last, let ifRange, let discarding):
        if let discarding {
          try emptyPart(sink, reason: discarding, onEvent: onEvent)
        }
        try fileStep { () throws(TransferFileError) in
          try sink.primeHashes(length: sink.machine.offset)
        }
        request.headers.add(name: "Range", value: "bytes=\(first)-\(last)")
        if let ifRange { request.headers.add(name: "If-Range", value: ifRange) }
      }
      onEvent(.requesting(offset: sink.machine.offset))
      sink.willSendRequest()
      let result = await performReportingProgress(request, sink: sink, onEvent: onEvent)
      received = sink.bytesReceived
      // A failed journal write stops the body too: say so, not what the transport saw.
      if let problem = sink.headFailure { throw failure(from: problem) }
      if let document = sink.metalink { throw failure(.describedByMetalink(document)) }
      if case .failure(let error) = result, !sink.sliceCompleted, !sink.rangeOverran {
        throw error
      }
      switch sink.headAction {
      case .append, .writeFromStart, .writeSlice, .discardThenVerify:
        return try await finish(sink, onEvent: onEvent)
      case .discardThenRestart(let reason):
        try emptyPart(sink, reason: reason, onEvent: onEvent)
        sink.machine.didDiscardPart(reason)
      case .fail(let status):
        let retryAfter = sink.lastHead?.headers["Retry-After"].flatMap {
          RetryAfter.delay(from: $0, now: configuration.clock.now)
        }
        throw failure(.status(status, retryAfter: retryAfter))
      case .failProtocol(let what):
        throw failure(.protocolViolation(what))
      case nil:
        throw failure(.protocolViolation("no response arrived"))
      }
    }
  }

  /// Opens the part file (or, for a piece in a locked folder without a record, prepares it
  /// to be created on its first write) and reconciles it with the journal as
  /// ``TransferStart`` decides:
  /// bytes that belong to another URL, or that have no journal at all, are dropped; after a
  /// reboot, bytes past the durable offset are dropped too. With the `lock` just taken, its
  /// folder is not checked again and its part is neither opened nor stated again: each did
  /// cost a piece of a stream system calls in a folder of a thousand files (two stats and a
  /// `mkdir` attempt; an `openat`, two `fstat`s and a `close`).
  private func openSink(
    onEvent: @escaping @Sendable (Event) -> Void, record known: TransferRecord??, restarts: Int,
    lock: DestinationLock?
  ) throws(Transfer.Error) -> TransferSink {
    let record: TransferRecord?
    if let known { record = known } else { record = try recordOfPart() }
    let part: PartFile
    if let lock {
      part = PartFile(path: partPath, borrowing: lock.descriptor, length: lock.partLength)
    } else if destinationIsInLockedFolder, record == nil {
      // No record, so no bytes of this transfer's on disk: nothing to open before some
      // arrive (a piece of a stream, whose folder's lock its runner holds).
      part = PartFile(creatingOnFirstWrite: partPath)
    } else {
      let folder = (destination as NSString).deletingLastPathComponent
      try fileStep { () throws(TransferFileError) in try FileSteps.createFolder(folder) }
      part = try fileStep { () throws(TransferFileError) in try PartFile(path: partPath) }
    }
    let start = TransferStart(
      record: record, partLength: try lengthOneConnectionGoesOnFrom(part, record: record),
      destination: destination,
      url: url.absoluteString, expectedSHA256: configuration.expectedSHA256,
      bootID: BootIdentity.current)
    if start.keptLength < part.flushedLength {
      try fileStep { () throws(TransferFileError) in try part.truncate(to: start.keptLength) }
    }
    if let reason = start.restart { onEvent(.restarted(reason)) }
    let onDisk = start.keptLength
    let current = start.record
    // Not written yet: the head of the response writes the record (with the validators)
    // before the first byte reaches the part, so a run that fails before that leaves the
    // journal as it was, and a fresh piece of a stream costs one transaction less.
    let saved = current
    let machine = TransferStateMachine(
      offset: onDisk,
      validators: Validators(etag: current.etag, lastModified: current.lastModified),
      totalLength: current.totalLength, slice: configuration.slice,
      encoding: current.contentEncoding, restarts: restarts)
    let needsHash = configuration.expectedSHA256 != nil || configuration.computesSHA256
    let hashesChunks = needsHash && configuration.hashesChunks && configuration.slice == nil
    let sink = TransferSink(
      machine: machine, part: part, hasher: needsHash ? SHA256() : nil, journal: journal,
      record: saved, checkpointInterval: configuration.checkpointInterval,
      clock: configuration.clock,
      chunks: hashesChunks ? ChunkHasher(length: current.totalLength) : nil)
    sink.stopsAtMetalink = configuration.stopsAtMetalink
    return sink
  }

  private func emptyPart(
    _ sink: TransferSink, reason: TransferStateMachine.RestartReason,
    onEvent: @Sendable (Event) -> Void
  ) throws(Transfer.Error) {
    try fileStep { () throws(TransferFileError) in try sink.emptyPart() }
    onEvent(.restarted(reason))
  }

  /// Runs one request while a side task reports progress; progress stops before this returns.
  private func performReportingProgress(
    _ request: HTTPRequest, sink: TransferSink, onEvent: @escaping @Sendable (Event) -> Void
  ) async -> Result<HTTPResponseHead, Transfer.Error> {
    let reporter = ProgressReporter(
      sink: sink, interval: configuration.progressInterval, clock: configuration.clock,
      onEvent: onEvent)
    // Weak: the sink outlives the request only if something keeps it; a strong capture
    // made a cycle that kept every sink, its part descriptor and its buffer, alive.
    sink.startProgress(after: configuration.progressInterval) { [weak reporter] in
      reporter?.startTicking()
    }
    do {
      let head = try await transport.perform(request, delegate: sink)
      await reporter.stop()
      reporter.reportNow()
      return .success(head)
    } catch {
      await reporter.stop()
      try? sink.flushPart()
      if error.kind == .canceled { return .failure(failure(.canceled)) }
      if error.kind == .delegateFailed, let fileError = error.underlying as? TransferFileError {
        return .failure(failure(.file(fileError)))
      }
      return .failure(failure(.network(error)))
    }
  }

  @discardableResult
  func fileStep<T>(_ body: () throws(TransferFileError) -> T) throws(Transfer.Error) -> T {
    do {
      return try body()
    } catch {
      throw fileFailure(error)
    }
  }

  /// A ``fileStep`` that waits for the device, run on a thread of ``DeviceWaits``.
  @discardableResult
  func deviceStep<T: Sendable>(_ body: @escaping @Sendable () throws(TransferFileError) -> T)
    async throws(Transfer.Error) -> T
  {
    do {
      return try await DeviceWaits.run(body)
    } catch {
      throw fileFailure(error)
    }
  }

  /// The failure for `error`, naming the part file when it names no path.
  private func fileFailure(_ error: TransferFileError) -> Transfer.Error {
    var located = error
    if located.path == nil { located.path = partPath }
    return failure(.file(located))
  }

  @discardableResult
  func indexStep<T>(_ body: () throws(StoreError) -> T) throws(Transfer.Error) -> T {
    do {
      return try body()
    } catch {
      throw failure(.index(error))
    }
  }

  private func failure(from error: any Swift.Error) -> Transfer.Error {
    if let error = error as? TransferFileError { return failure(.file(error)) }
    if let error = error as? StoreError { return failure(.index(error)) }
    return failure(.protocolViolation("\(error)"))
  }
}
