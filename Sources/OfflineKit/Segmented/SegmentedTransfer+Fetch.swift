import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore

extension SegmentedTransfer {
  /// Runs the connections until every range is written, checkpointing the ranges every
  /// second (fsync first, so a recorded `next` never runs ahead of the disk).
  func fetchAll(
    _ board: RangeBoard, fd: Int32, total: Int64, validator: String, sources: MirrorSources,
    onEvent: @escaping @Sendable (Transfer.Event) -> Void
  ) async throws {
    let clock = transfer.configuration.clock
    let ticker = Task {
      let rate = RateEstimator(clock: clock)
      while !Task.isCancelled {
        try? await clock.sleep(for: .seconds(1))
        // Stopped while asleep: the run's own checkpoint (or its finish) follows, and this
        // one would only make it wait for another sync of the part.
        guard !Task.isCancelled else { return }
        checkpoint(board, fd: fd)
        let written = board.written
        onEvent(
          .progress(
            OfflineProgress(
              bytes: written, total: total, bytesPerSecond: rate.update(bytes: written))))
      }
    }
    // The ticker's last checkpoint must land before the run's own, never after it: a tick
    // that saved its ranges after `finish` cleared them left a finished file with ranges.
    func stopTicker() async {
      ticker.cancel()
      await ticker.value
    }
    // Readers of the file while it downloads: what they want is fetched first, over
    // connections of its own (at most ``readerConnections`` at once).
    let playback = transfer.configuration.playback
    let (demands, demand) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    playback?.attach(.ranges(board), onDemand: { demand.yield() })
    defer {
      playback?.detach()
      demand.finish()
    }
    let idleEnd = onlyWhatReadersAsk
    do {
      try await withThrowingTaskGroup(of: GroupEvent.self) { group in
        var concurrency = RangeConcurrency(growth)
        var readerConnections = 0
        var running = 0
        var activity = 0  // counts wants and reader connections, for the idle end
        func serveDemands() {
          guard let playback else { return }
          for offset in playback.wants where readerConnections < Self.readerConnections {
            guard let slot = board.claim(demandedAt: offset, soon: Self.demandSoon) else {
              continue
            }
            readerConnections += 1
            running += 1
            activity += 1
            group.addTask {
              try await connection(
                board, fd: fd, total: total, validator: validator, sources: sources,
                onEvent: onEvent, only: slot)
              return .readerConnectionEnded
            }
          }
        }
        // Only the readers' connections run: with none running, the run ends once nothing
        // was asked for a while.
        func startIdleTimer() {
          guard let idleEnd, running == 0 else { return }
          let mark = activity
          group.addTask {
            try? await Task.sleep(for: idleEnd)
            return .idle(since: mark)
          }
        }
        // Ends with the next want (or the group's cancellation).
        func listenForDemand() {
          group.addTask {
            var iterator = demands.makeAsyncIterator()
            _ = await iterator.next()
            return .demanded
          }
        }
        if playback != nil { listenForDemand() }
        let connections = idleEnd == nil ? concurrency.limit : 0
        for _ in 0..<connections {
          group.addTask {
            try await connection(
              board, fd: fd, total: total, validator: validator, sources: sources,
              onEvent: onEvent)
            return .connectionEnded
          }
        }
        running = connections
        serveDemands()  // a reader that came before the ranges
        startIdleTimer()
        var window = (start: ContinuousClock.now, written: board.written)
        // The first window only starts the clock: it holds the probe and the connections'
        // start, and its low rate made any later window look like a gain.
        var warmingUp = true
        if !concurrency.settled, idleEnd == nil {
          group.addTask { await Self.windowEnded(Self.warmUpLength) }
        }
        while running > 0 || (idleEnd != nil && !board.isComplete),
          let event = try await group.next()
        {
          switch event {
          case .connectionEnded:
            running -= 1
          case .readerConnectionEnded:
            running -= 1
            readerConnections -= 1
            if running > 0 || idleEnd != nil { serveDemands() }
            startIdleTimer()
          case .demanded:
            if running > 0 || idleEnd != nil {
              activity += 1
              serveDemands()
              listenForDemand()
              startIdleTimer()
            }
          case .idle(let mark):
            guard mark == activity, running == 0 else { continue }
            throw CancellationError()  // checkpointed below; the run is `canceled`
          case .windowEnded where warmingUp:
            warmingUp = false
            window = (ContinuousClock.now, board.written)
            if running > 0 { group.addTask { await Self.windowEnded() } }
          case .windowEnded:
            let now = ContinuousClock.now
            let written = board.written
            let seconds = (now - window.start).inSeconds
            let before = concurrency.limit
            let limit = concurrency.didMeasure(
              bytesPerSecond: seconds > 0 ? Double(written - window.written) / seconds : 0,
              remaining: total - written)
            window = (now, written)
            for _ in before..<max(before, limit) where running > 0 {
              running += 1
              group.addTask {
                try await connection(
                  board, fd: fd, total: total, validator: validator, sources: sources,
                  onEvent: onEvent)
                return .connectionEnded
              }
            }
            if !concurrency.settled, running > 0 {
              group.addTask { await Self.windowEnded() }
            }
          }
        }
        // Never complete for itself: what the readers fetched stays as ranges for the
        // download that resumes (checkpointed below), and the content stays as it was.
        if idleEnd != nil { throw CancellationError() }
        group.cancelAll()  // a window still waiting
      }
    } catch {
      await stopTicker()
      checkpoint(board, fd: fd)  // a stop keeps every byte already written
      if error is CancellationError { throw transfer.failure(.canceled) }
      throw error
    }
    await stopTicker()
    if !board.isComplete { throw transfer.failure(.protocolViolation("ranges left unfinished")) }
  }

  /// What ends in the connections' task group.
  private enum GroupEvent: Sendable {
    /// A connection found no range left to claim.
    case connectionEnded
    /// A connection that fetched a range for a reader is done.
    case readerConnectionEnded
    /// A reader wants a byte (``FilePlayback/want(_:for:)``), or none waits any more.
    case demanded
    /// A window of ``windowLength`` passed (or the group was cancelled).
    case windowEnded
    /// Nothing was asked for and no reader's connection started since the activity count
    /// was `since` (a run of ``onlyWhatReadersAsk``).
    case idle(since: Int)
  }

  /// How many connections at most fetch ranges for readers at once, beside the others.
  static let readerConnections = 2
  /// How far a connection fetching for a reader goes before it ends (the reader's next want
  /// starts another where it reads then), so a reader that went away holds no connection.
  static let readerSpan: Int64 = 16 << 20
  /// The same for a run of only what readers ask: a suspended file fetches little more than
  /// a player reads (about 2 s of a 16 Mb/s video ahead of it).
  static let readersOnlySpan: Int64 = 4 << 20

  /// How far a connection fetching for a reader goes in this run.
  var readerSpan: Int64 { onlyWhatReadersAsk == nil ? Self.readerSpan : Self.readersOnlySpan }
  /// A reader's byte this close past an idle range's next byte is fetched by claiming that
  /// range as it is, not by splitting it.
  static let demandSoon: Int64 = 1 << 20

  /// How long the connections run before their rate decides whether more open. Each window
  /// before the count settles runs short of what the next step would bring: on nginx's
  /// `limit_rate 40m`, 500 ms windows left the default at 0.74x aria2c -x8's wall for 1 GiB,
  /// 250 ms ones 0.68x (same five rounds). Shorter windows measure less than a progress
  /// tick's worth and judge noise.
  static let windowLength: Duration = .milliseconds(250)
  /// The first window, which only starts the clock: long enough for the connections'
  /// requests to be answered (on loopback a few milliseconds, over the internet a few round
  /// trips), short, because on an origin that caps each connection it runs at the starting
  /// count (a full window of it cost 1 GiB about 0.1 s on nginx's `limit_rate 40m`).
  static let warmUpLength: Duration = .milliseconds(250)

  private static func windowEnded(_ length: Duration = windowLength) async -> GroupEvent {
    try? await Task.sleep(for: length)
    return .windowEnded
  }

  /// One connection: claims ranges until none is left, fetching each in requests of a
  /// bounded span (``RangeBoard/beginRequest(_:preferredSpan:)``), about
  /// ``requestDuration`` each at the pace its last request kept, and retrying transient
  /// failures.
  ///
  /// With `only`, it fetches that slot (claimed for a reader,
  /// ``RangeBoard/claim(demandedAt:soon:)``), starting with a short request so the reader's
  /// bytes come at once, and ends after ``readerSpan`` bytes or the slot's end, leaving the
  /// rest of the slot to any connection: a reader that reads on asks again from where it is.
  ///
  /// With mirrors, each request goes to the source ``MirrorSources/pick()`` gives; a
  /// mirror's failure is weighed there (tried again, boxed, dropped) instead of counting
  /// against the connection's retries, and a mirror that answers other bytes than asked
  /// is dropped before any of them is written.
  private func connection(
    _ board: RangeBoard, fd: Int32, total: Int64, validator: String, sources: MirrorSources,
    onEvent: @escaping @Sendable (Transfer.Event) -> Void, only: Int? = nil
  ) async throws {
    // Unknown until a request shows the pace; a reader's first request is short.
    var span: Int64? = only == nil ? nil : board.minimumSplit
    var claimed = only
    while true {
      var next = claimed
      if next == nil, only == nil { next = try await claim(board, sources: sources) }
      guard let slot = next else { break }
      claimed = nil
      var failures = 0
      let start = board.range(slot).next
      while board.range(slot).remaining > 0 {
        try Task.checkCancellation()
        if only != nil, board.range(slot).next - start >= readerSpan { break }
        // A reader's bytes come from the primary: its pace is the one known to hold.
        let source = only == nil ? sources.pick() : (index: 0, url: transfer.url, validator: nil)
        // With mirrors, a request lasts about as long whichever source it goes to.
        let preferred =
          sources.hasMirrors ? sources.span(of: source.index) ?? Self.firstSpanWithMirrors : span
        let asked = board.beginRequest(slot, preferredSpan: preferred)
        let sink = RangeSink(
          board: board, slot: slot, request: asked, descriptor: fd,
          chunks: hashesChunks ? ChunkHasher(digests: digests, length: total) : nil)
        if source.index > 0 { sink.expectedTotal = total }
        var request = source.index == 0 ? transfer.request() : transfer.session.request(source.url)
        // A reader's bytes take the whole of a cap while they come; the rest waits.
        request.hasRatePriority = only != nil
        request.headers.add(
          name: "Range", value: "bytes=\(asked.lowerBound)-\(asked.upperBound - 1)")
        if let ifRange = source.index == 0 ? validator : source.validator {
          request.headers.add(name: "If-Range", value: ifRange)
        }
        let started = ContinuousClock.now
        var failure: HTTPError?
        do throws(HTTPError) {
          _ = try await transfer.transport.perform(request, delegate: sink)
        } catch {
          failure = error
        }
        board.endRequest(slot)
        // Before the next request, the finish, or the file's close: nothing reads it for this
        // sink after.
        sink.finishHashing()
        let elapsed = started.duration(to: .now)
        // Who wrote which bytes matters only to blame a bad piece on its source.
        if transfer.configuration.pieces != nil {
          sources.wrote(sink.expectedStart..<(sink.expectedStart + sink.received), by: source.index)
        }
        if sources.hasMirrors,
          let next = try weigh(
            source.index, sink: sink, failure: failure, elapsed: elapsed, sources: sources,
            onEvent: onEvent)
        {
          if next == .nextRange { break }
          continue
        }
        if let error = failure {
          if sink.rangeDone { break }
          if error.kind == .canceled { throw transfer.failure(.canceled) }
          if let failure = sink.writeFailure { throw transfer.failure(.file(failure)) }
          let wrapped = transfer.failure(.network(error))
          failures = sink.received > 0 ? 1 : failures + 1
          guard error.isTransient, failures < transfer.configuration.retry.maximumAttempts else {
            board.release(slot)
            throw wrapped
          }
          try await transfer.configuration.clock.sleep(
            for: transfer.configuration.retry.delay(afterFailures: failures, retryAfter: nil))
          continue
        }
        if !sink.accepted { throw Inconsistent() }
        span = Self.span(received: sink.received, in: elapsed) ?? span
      }
      board.release(slot)
      if only != nil { return }
    }
  }

  /// About how long a connection's request runs (its span is what the last request brought
  /// in this time). Long next to a round trip, so the pause between two requests costs
  /// little (40 ms in a second: 4 %); short, so a connection added later finds bytes no
  /// request asks for yet.
  static let requestDuration: Duration = .seconds(1)

  /// The span of a request that would take ``requestDuration`` at the pace of one that
  /// brought `received` bytes in `elapsed`; nil when that was too short to tell.
  static func span(received: Int64, in elapsed: Duration) -> Int64? {
    guard received > 0, elapsed >= .milliseconds(20) else { return nil }
    return Int64(Double(received) / elapsed.inSeconds * requestDuration.inSeconds)
  }

  private func checkpoint(_ board: RangeBoard, fd: Int32) {
    let ranges = board.snapshot()
    guard Durability.syncData(fd) == 0 else { return }
    try? journal.saveRanges(ranges, forDestination: destination)
  }

  /// Syncs, checks the length and the checksum over the whole file, then renames into place.
  /// `knownSHA256` is the file's SHA-256 when a read of it since its last write computed it
  /// (the piece check's): the file is then not read again for it.
  func finish(
    fd: Int32, total: Int64, onEvent: @Sendable (Transfer.Event) -> Void,
    knownSHA256: String? = nil
  ) throws(Transfer.Error) -> Transfer.Outcome {
    onEvent(.verifying)
    guard Durability.syncData(fd) == 0 else {
      throw transfer.failure(.file(TransferFileError(.sync, errno: errno, path: transfer.partPath)))
    }
    var sha: String?
    var chunks: [String]?
    if let knownSHA256 {
      sha = knownSHA256
      if hashesChunks {
        // Only the chunks no range completed whole are read.
        chunks = try transfer.fileStep { () throws(TransferFileError) in
          try digests.complete(fromFile: fd, length: total)
        }
      }
    } else if transfer.configuration.expectedSHA256 != nil
      || transfer.configuration.computesSHA256
    {
      // One read of the file for its SHA-256; chunks no range completed whole (one that
      // spans two ranges, or ranges fetched before a resume) are hashed in the same read.
      let whole = SHA256()
      if hashesChunks {
        chunks = try transfer.fileStep { () throws(TransferFileError) in
          try digests.complete(fromFile: fd, length: total, alsoFeeding: whole)
        }
      } else {
        try transfer.fileStep { () throws(TransferFileError) in
          try whole.feed(fromFile: fd, length: total)
        }
      }
      sha = whole.finalizeHex()
    }
    if let expected = transfer.configuration.expectedSHA256, let sha, sha != expected {
      unlink(transfer.partPath)
      unlink(mapPath)
      try transfer.indexStep { () throws(StoreError) in try journal.remove(destination: destination)
      }
      throw transfer.failure(.checksumMismatch(expected: expected, actual: sha))
    }
    var record =
      (try? journal.record(forDestination: destination))?.flatMap { $0 }
      ?? TransferRecord(destination: destination, url: transfer.url.absoluteString)
    record.phase = .finishing
    record.totalLength = total
    record.durableOffset = total
    record.sha256 = sha
    let finishing = record
    try transfer.indexStep { () throws(StoreError) in
      try journal.save(finishing)
      try journal.saveRanges([], forDestination: destination)
    }
    try transfer.checkDestinationKind()
    try transfer.fileStep { () throws(TransferFileError) in
      try FileSteps.renameIntoPlace(transfer.partPath, to: destination, durably: true)
    }
    unlink(mapPath)
    try transfer.recordComplete(&record)
    var outcome = Transfer.Outcome(
      destination: destination, length: total, sha256: sha, wasAlreadyComplete: false,
      bytesReceived: total, check: sha == nil ? .length : .sha256)
    outcome.chunkSHA256 = chunks
    return outcome
  }
}
