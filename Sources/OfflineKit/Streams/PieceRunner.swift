import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore

/// Downloads the pieces of a plan, several at once, each a resumable ``Transfer`` into the
/// content's folder; reports aggregate progress; syncs the folder's file system at the end.
///
/// The engine of every stream kind: HLS and DASH both plan a list of pieces (a remote URL or
/// a slice of one, and a local path) and hand it here. How many are in flight follows
/// ``PieceConcurrency``: many streams on HTTP/2, more connections on HTTP/1.1 while they
/// still pay, fewer when the origin answers 429 or 503.
///
/// Its owner holds the folder's lock (``DestinationLock/acquire(folder:for:waits:)``) while
/// it runs: the pieces' names inside are OfflineKit's alone.
struct PieceRunner: Sendable {
  /// What a run fetched, and how.
  struct Result: Sendable, Equatable {
    /// Bytes of every piece.
    var bytes: Int64
    /// The protocol the pieces' responses came with ("HTTP/1.1", "HTTP/2"), nil when no
    /// request was answered (every piece was on disk already).
    var httpVersion: String?
    /// The most pieces that were in flight at once.
    var mostInFlight: Int
    /// The pieces in a pack (fetched into it by this run, or kept there from an earlier
    /// one), by ``StreamPiece/local``.
    var packed: [String: PackedPiece] = [:]
    /// What each source of the stream served (``StreamFailover/reports``); empty when the
    /// pieces have one source.
    var sources: [Transfer.SourceReport] = []
  }

  /// Where in its pack a piece's bytes are, for the offline playlist's byte range.
  struct PackedPiece: Sendable, Equatable {
    /// The pack's path inside the content folder (``StreamPiece/pack``).
    var pack: String
    /// Where the piece starts in the pack.
    var offset: Int64
    /// The piece's bytes.
    var length: Int64
  }

  /// The content's folder; every piece's `local` path is inside it.
  let folder: URL
  let journal: TransferJournal
  /// The content's session: every piece's requests go through it. Its retry policy is the
  /// one inside one piece's transfer (a cut resumed at once).
  let session: ContentSession
  /// Retries of a piece that failed.
  let pieceRetry: PieceRetryPolicy
  /// The bounds of how many pieces are downloaded at once.
  let concurrency: PieceConcurrency.Configuration
  let pieces: [StreamPiece]
  /// Called before a pack is cut (``PiecePacks/cutsRegions``), while nothing has been
  /// written yet: the offline playlists that may address the regions to be cut go first, so
  /// no player is handed a pack being rewritten.
  let beforeCuttingPacks: @Sendable () throws(Transfer.Error) -> Void
  /// The SHA-256 a piece must have, by its ``StreamPiece/local`` path: one fetched with
  /// other bytes is not kept and fails the run (``StreamDownloading/expectedPieceSHA256``).
  let expectedSHA256: [String: String]
  /// Told which pieces are on disk: at most every progress tick while that grows (after the
  /// journal has them), and once more when the pieces have all ended, fetched or failed (not
  /// when the run fails before its first piece); nil tells nobody.
  let onLanding: (@Sendable (PieceLanding) -> Void)?
  /// The players of the stream, if any: the pieces they wait for are fetched next, at most
  /// ``playbackExtra`` of them at once beside the concurrency limit, and each piece is shown
  /// to them the moment it lands.
  let playback: StreamPlayback?
  /// When set, the run fetches only what players ask for (a content that stays suspended
  /// while a player reads it), and ends, with `canceled`, once this long has passed with no
  /// piece in flight and none asked for.
  var onlyWhatPlayersAsk: Duration?
  /// The sources of the pieces (their URLs and ``StreamPiece/alternates``) and what each
  /// served in this run; named after the first piece with the most alternates unless the
  /// planner names them (``StreamFailover/init(names:)``).
  var failover: StreamFailover

  /// How many pieces players asked for may be in flight at once, beside the concurrency
  /// limit (which counts the others).
  static let playbackExtra = 2

  /// A runner of `pieces` into `folder`; each piece in ``StreamPiece/pack`` goes into that
  /// pack when `packs` is true, into a file of its own otherwise.
  init(
    folder: URL, journal: TransferJournal, session: ContentSession, pieceRetry: PieceRetryPolicy,
    concurrency: PieceConcurrency.Configuration, pieces: [StreamPiece], packs: Bool = true,
    expectedSHA256: [String: String] = [:],
    beforeCuttingPacks: @escaping @Sendable () throws(Transfer.Error) -> Void = {},
    onLanding: (@Sendable (PieceLanding) -> Void)? = nil, playback: StreamPlayback? = nil
  ) {
    self.folder = folder
    self.journal = journal
    self.session = session
    self.pieceRetry = pieceRetry
    self.concurrency = concurrency
    let ordered = StreamPiece.inPlaybackOrder(pieces)
    self.pieces =
      packs
      ? ordered
      : ordered.map { piece in
        var filed = piece
        filed.pack = nil
        return filed
      }
    self.expectedSHA256 = expectedSHA256
    self.beforeCuttingPacks = beforeCuttingPacks
    self.onLanding = onLanding
    self.playback = playback
    self.failover = StreamFailover(pieces: pieces)
  }

  /// Downloads every piece not on disk yet.
  func run(onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    async throws(Transfer.Error) -> Result
  {
    let pins = try pinFolders()
    defer { withExtendedLifetime(pins) {} }
    StopPoint.reach(.piecesAfterFolders)
    let tally = Locked(StreamProgressTally(pieces: pieces.map(StreamProgressTally.Piece.init)))
    let clock = pieceRetry.clock
    let rate = RateEstimator(clock: clock)
    let report = { @Sendable (progress: StreamProgress) in
      onProgress(
        OfflineProgress(
          bytes: progress.bytes, total: progress.total, totalIsEstimate: progress.totalIsEstimate,
          segmentsDone: progress.segmentsDone, segmentsTotal: progress.segmentsPlanned,
          bytesPerSecond: rate.update(bytes: progress.bytes)))
    }
    let completions = CompletionBatch(journal: journal)
    let responses = ResponseRecordBatch(journal: journal)
    let board = LandedPieces()
    let onLanding = self.onLanding
    let reporter = Task {
      var told = -1  // the first tick tells what is on disk, even nothing
      while !Task.isCancelled {
        // Read before the flush: every piece in it has its completion in the batch flushed.
        let onDisk = onLanding == nil ? [] : board.landing.landed
        // The journal lags the pieces on disk by at most a tick: whoever reads it while the
        // run goes (a manager's snapshot, a suspend) sees the pieces finished by then.
        try? completions.flush()
        report(tally.withLock { $0.progress() })
        if let onLanding, onDisk.count != told {
          told = onDisk.count
          onLanding(PieceLanding(landed: onDisk, packed: board.packed))
        }
        try? await clock.sleep(for: .milliseconds(250))
      }
    }
    defer { reporter.cancel() }
    let flow = Locked(Flow(decision: PieceConcurrency(concurrency)))
    let watching = AnswerWatchingTransport(base: session.transport) { answer in
      flow.withLock { $0.record(answer) }
    }
    let watched = session.reaching(through: watching)
    let pieces = self.pieces
    let journaled = Self.journaledRecords(journal, under: folder.path)
    let packs = PiecePacks(pieces: pieces, folder: folder, records: journaled ?? [:])
    if packs.cutsRegions { try beforeCuttingPacks() }
    let playback = self.playback
    let folder = self.folder
    if onLanding != nil || playback != nil {
      // What an earlier run finished is on disk from the first tick: a growing playlist a
      // player reloads never loses a segment it listed when this run starts.
      let earlier = Self.landedEarlier(pieces, in: folder, journaled: journaled, packs: packs)
      for local in earlier.landed { board.didLand(local) }
      for (local, region) in earlier.packed { board.didPack(local, at: region) }
    }
    // Players' wants wake the loop below through `demands` (one pending wake is enough: the
    // loop reads every want when it wakes).
    let (demands, demanded) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    playback?.attach(
      planned: Set(pieces.map(\.local)),
      board: board,
      onDemand: { demanded.yield() })
    defer {
      playback?.detach()
      demanded.finish()
    }
    let began = clock.instant
    let outcome: Swift.Result<Void, Transfer.Error> = await withTaskGroup(of: Ended.self) { group in
      var started = [Bool](repeating: false, count: pieces.count)
      var next = 0
      var inFlight = 0
      var wantedInFlight = 0  // of `inFlight`
      var remaining = pieces.count
      var listening = false
      let indexOf = playback == nil ? [:] : Self.indices(of: pieces)
      let idleEnd = self.onlyWhatPlayersAsk
      var activity = 0  // counts starts and wants, for the idle timer of `idleEnd`
      func start(_ index: Int, wanted: Bool = false) {
        activity += 1
        started[index] = true
        inFlight += 1
        if wanted { wantedInFlight += 1 }
        group.addTask {
          let result = await fetch(
            index, session: watched, tally: tally, journaled: journaled,
            completions: completions, responses: responses, packs: packs, board: board,
            wanted: wanted)
          if case .success = result {
            let local = pieces[index].local
            if onLanding != nil || playback != nil { board.didLand(local) }
            playback?.didLand(local)
          }
          return .piece(result, wanted: wanted)
        }
      }
      func listen() {
        guard playback != nil, !listening, remaining > 0 else { return }
        listening = true
        group.addTask {
          var wants = demands.makeAsyncIterator()
          return await wants.next() == nil ? .quiet : .demand
        }
      }
      func fill() {
        let limit = flow.withLock { $0.decision.limit }
        for local in playback?.wants ?? [] where wantedInFlight < Self.playbackExtra {
          guard let index = indexOf[local], !started[index] else { continue }
          start(index, wanted: true)
        }
        while idleEnd == nil, inFlight - wantedInFlight < limit {
          while next < pieces.count, started[next] { next += 1 }
          guard next < pieces.count else { break }
          start(next)
        }
        responses.writers.store(inFlight, ordering: .relaxed)
        flow.withLock { $0.mostInFlight = max($0.mostInFlight, inFlight) }
        if let idleEnd, inFlight == 0 {
          let mark = activity
          group.addTask {
            try? await clock.sleep(for: idleEnd)
            return .idle(since: mark)
          }
        }
      }
      fill()
      listen()
      for await ended in group {
        switch ended {
        case .demand:
          activity += 1
          listening = false
          listen()
          fill()
          continue
        case .quiet:
          listening = false
          continue
        case .idle(let mark):
          guard mark == activity, inFlight == 0 else { continue }
          group.cancelAll()  // the listener for wants
          return .failure(
            Transfer.Error(.canceled, url: pieces.first?.remote ?? folder, destination: folder.path)
          )
        case .piece(let result, let wanted):
          inFlight -= 1
          if wanted { wantedInFlight -= 1 }
          remaining -= 1
          responses.writers.store(inFlight, ordering: .relaxed)
          switch result {
          case .failure(let error):
            group.cancelAll()
            return .failure(error)
          case .success(true):
            let now = clock.instant
            let received = watching.received.value
            _ = flow.withLock {
              $0.decision.didFinish(received: received, at: began.duration(to: now))
            }
          case .success(false):
            break
          }
        }
        guard remaining > 0 || idleEnd != nil else {
          group.cancelAll()  // the listener for wants
          break
        }
        fill()
      }
      guard idleEnd == nil else {  // never complete: it fetched only what players asked for
        return .failure(
          Transfer.Error(.canceled, url: pieces.first?.remote ?? folder, destination: folder.path))
      }
      return .success(())
    }
    // The reporter's last tick must land before the final report, never after it.
    reporter.cancel()
    await reporter.value
    // Every piece has ended. A batch that cannot be written loses no bytes: the pieces keep
    // their response records (see `CompletionBatch`), and a failure has been thrown by
    // the piece that filled an earlier batch.
    let onDisk = onLanding == nil ? [] : board.landing.landed
    try? completions.flush()
    onLanding?(PieceLanding(landed: onDisk, packed: board.packed))
    if case .failure(let error) = outcome { throw error }
    try checkInPlace(pins)
    // One `syncfs` for every piece written without a per-file fsync. A stream whose pieces
    // may not be on the device is not complete: its next run syncs them again.
    if let code = await DeviceWaits.run({ Durability.syncFileSystem(of: folder) }) {
      throw Transfer.Error(
        .file(TransferFileError(.sync, errno: code, path: folder.path)),
        url: pieces.first?.remote ?? folder, destination: folder.path)
    }
    let last = tally.withLock { $0.progress() }
    report(last)
    var result = flow.withLock { flow in
      Result(bytes: last.bytes, httpVersion: flow.httpVersion, mostInFlight: flow.mostInFlight)
    }
    result.packed = board.packed
    result.sources = failover.reports
    return result
  }

  /// The pieces an earlier run finished, as the journal says when this run begins: a file
  /// of its own whose record is complete, or a region of a pack that is kept
  /// (``PiecePacks/kept``). Each is checked again when its turn comes.
  private static func landedEarlier(
    _ pieces: [StreamPiece], in folder: URL, journaled: [String: TransferRecord]?,
    packs: PiecePacks
  ) -> PieceLanding {
    var landing = PieceLanding()
    guard let journaled else { return landing }
    let base = folder.path  // the journal's destinations are this plus "/" and the local path
    for piece in pieces {
      let destination = base + "/" + piece.local
      if piece.pack != nil {
        guard let region = packs.keptRegion(of: piece, at: destination) else { continue }
        landing.landed.insert(piece.local)
        landing.packed[piece.local] = region
      } else if let record = journaled[destination], record.phase == .complete,
        record.pack == nil
      {
        landing.landed.insert(piece.local)
      }
    }
    return landing
  }

  /// Makes the folders of the pieces and their packs inside ``folder`` before any is
  /// written, refusing a link where one belongs, and pins them for the run: every piece is
  /// written relative to its folder's descriptor (``ContentFolders/pin(forFiles:in:)``).
  private func pinFolders() throws(Transfer.Error) -> ContentFolders.Pins {
    do {
      return try ContentFolders.pin(
        forFiles: pieces.map(\.local) + pieces.compactMap(\.pack), in: folder.path)
    } catch {
      throw Transfer.Error(
        .file(error), url: pieces.first?.remote ?? folder, destination: error.path ?? folder.path)
    }
  }

  /// Fails the run when a folder of its pieces was moved or linked away while it went: its
  /// pieces are in the folder it opened, not where the content expects them.
  private func checkInPlace(_ pins: ContentFolders.Pins) throws(Transfer.Error) {
    do {
      try pins.checkInPlace()
    } catch {
      throw Transfer.Error(
        .file(error), url: pieces.first?.remote ?? folder, destination: error.path ?? folder.path)
    }
  }

  /// What ended in the run's task group: a piece (fetched or not), or the wait for players'
  /// wants (one came, or the wants' stream finished).
  private enum Ended: Sendable {
    case piece(Swift.Result<Bool, Transfer.Error>, wanted: Bool)
    case demand
    case quiet
    /// Nothing started nor was asked for since the activity count was `since` (a run of
    /// ``onlyWhatPlayersAsk``).
    case idle(since: Int)
  }

  /// The index of each piece by its local path.
  private static func indices(of pieces: [StreamPiece]) -> [String: Int] {
    var indices: [String: Int] = [:]
    for (index, piece) in pieces.enumerated() where indices[piece.local] == nil {
      indices[piece.local] = index
    }
    return indices
  }

  /// The decision and what the run saw, shared by the loop and the requests' callbacks.
  private struct Flow: Sendable {
    var decision: PieceConcurrency
    var httpVersion: String?
    var mostInFlight = 0

    mutating func record(_ answer: AnswerWatchingTransport.Answer) {
      switch answer {
      case .head(let version, let status):
        if httpVersion == nil { httpVersion = version }
        _ = decision.didLearn(version: version)
        _ = decision.didAnswer(.status(status))
      case .failure:
        _ = decision.didAnswer(.failure)
      }
    }
  }

  /// Fetches piece `index` (retrying it as ``pieceRetry`` says) through `session`; returns
  /// whether it was fetched (false when it was on disk already). `journaled` is the
  /// journal's records of the folder's pieces when the run began (see
  /// ``carryOver(_:destination:to:journaled:)``); a piece it holds no record for skips the
  /// transfer's own look-up on its first try. `completions` takes the pieces' `complete`
  /// records, `responses` the records of their responses, written before their renames (or
  /// the `complete` records of the pieces that go into `packs`, whose regions `board` collects). A
  /// piece a player is `wanted` for has the rate priority.
  private func fetch(
    _ index: Int, session: ContentSession, tally: Locked<StreamProgressTally>,
    journaled: [String: TransferRecord]?, completions: CompletionBatch,
    responses: ResponseRecordBatch, packs: PiecePacks, board: LandedPieces,
    wanted: Bool
  ) async -> Swift.Result<Bool, Transfer.Error> {
    let piece = pieces[index]
    let destination = folder.appending(path: piece.local).path
    // A piece journaled under another source's URL (an earlier run's failover) is the same
    // file: it is kept, or resumed with `If-Range`, as if its first source had served it.
    let record = Self.carryOver(
      journal, destination: destination, to: piece.remote, journaled: journaled,
      alternates: piece.alternates)
    if let region = packs.keptRegion(of: piece, at: destination),
      record?.url == piece.remote.absoluteString
    {
      tally.withLock { $0.pieceStarted(index, total: region.length) }
      tally.withLock { $0.pieceFinished(index, length: region.length) }
      board.didPack(piece.local, at: region)
      return .success(false)
    }
    let role = Transfer.Piece(
      completions: completions, responses: responses,
      // A record of the piece in a pack that was not kept is not read again: it starts afresh.
      journalHasNoRecord: journaled.map { $0[destination] == nil || $0[destination]?.pack != nil }
        ?? false,
      pack: piece.pack.flatMap { packs.packs[folder.appending(path: $0).path] })
    let first = Transfer(
      url: piece.remote, destination: destination, journal: journal, session: session,
      configuration: pieceOptions(piece, wanted: wanted), role: .streamPiece(role))
    tally.withLock { $0.pieceStarted(index, total: piece.slice?.length) }
    // Its players may read its part as it grows (``ArrivingPiece``).
    let playback = self.playback
    playback?.didStart(piece.local, part: first.partPath, length: piece.slice?.length)
    return await fetchFromSources(
      index, first: first, complete: record?.phase == .complete, tally: tally, board: board,
      playback: playback)
  }

  /// The options of `piece`'s transfer: its SHA-256 computed as it streams (the journal
  /// keeps it; `verify` checks the piece against it) and checked against the one expected
  /// of it, if any; without chunk digests.
  private func pieceOptions(_ piece: StreamPiece, wanted: Bool) -> Transfer.Configuration {
    var options = Transfer.Configuration(
      computesSHA256: true, retry: session.retry, progressInterval: .milliseconds(250),
      replacesExistingFile: true, syncsEachFile: false)
    options.slice = piece.slice
    options.hashesChunks = false
    options.clock = pieceRetry.clock
    options.hasRatePriority = wanted
    return options.expecting(sha256: expectedSHA256[piece.local])
  }
}
