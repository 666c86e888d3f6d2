import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore

extension SegmentedTransfer {
  /// Runs the connections until every range is written, checkpointing the ranges every
  /// second (fsync first, so a recorded `next` never runs ahead of the disk). With `ledger`,
  /// each piece is checked as soon as its bytes are written, on a ``PieceChecker``'s queue:
  /// by its digest from the read-back of the request that wrote it whole
  /// (``judge(_:sha256:ledger:board:sources:onEvent:)``), else read from the file
  /// (``checkLanded(_:readBackFrom:ledger:board:fd:sources:onEvent:)``); the checkpoints
  /// record the verified ones.
  func fetchAll(
    _ board: RangeBoard, fd: Int32, total: Int64, validator: String, sources: MirrorSources,
    ledger: PieceLedger? = nil, onEvent: @escaping @Sendable (Transfer.Event) -> Void
  ) async throws {
    let clock = transfer.configuration.clock
    let checker = ledger.map { ledger in
      PieceChecker(
        ledger: ledger,
        check: { bytes, readBackFrom in
          checkLanded(
            bytes, readBackFrom: readBackFrom, ledger: ledger, board: board, fd: fd,
            sources: sources, onEvent: onEvent)
        },
        judge: { index, sha256, finds in
          judge(
            index, sha256: sha256, finds: finds, ledger: ledger, board: board,
            sources: sources, onEvent: onEvent)
        })
    }
    // No check reads the file after this run returns (its caller may close it).
    defer { checker?.drain() }
    let ticker = Task {
      let rate = RateEstimator(clock: clock)
      // A piece fetched again moves the board's count back; the progress never does.
      var shown: Int64 = 0
      while !Task.isCancelled {
        try? await clock.sleep(for: .seconds(1))
        // Stopped while asleep: the run's own checkpoint (or its finish) follows, and this
        // one would only make it wait for another sync of the part.
        guard !Task.isCancelled else { return }
        checkpoint(board, fd: fd, ledger: ledger)
        shown = max(shown, board.written)
        let written = shown
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
                checker: checker, onEvent: onEvent, only: slot)
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
              checker: checker, onEvent: onEvent)
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
                  checker: checker, onEvent: onEvent)
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
      checker?.drain()
      checkpoint(board, fd: fd, ledger: ledger)  // a stop keeps every byte already written
      if error is CancellationError { throw transfer.failure(.canceled) }
      throw error
    }
    await stopTicker()
    // A piece found bad after its last fetcher left is fetched by the pieces' settling.
    if !board.isComplete, ledger == nil {
      throw transfer.failure(.protocolViolation("ranges left unfinished"))
    }
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
}
