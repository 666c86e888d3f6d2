import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineLocks
import OfflineStore

/// Downloads the pieces of a plan, several at once, each a resumable ``Transfer`` into the
/// content's folder; reports aggregate progress; syncs the folder's file system at the end.
///
/// The engine of every stream kind: HLS and DASH both plan a list of pieces (a remote URL or
/// a slice of one, and a local path) and hand it here.
struct HLSPieceRunner: Sendable {
  /// The content's folder; every piece's `local` path is inside it.
  let folder: URL
  let journal: TransferJournal
  let transport: any HTTPTransporting
  /// Retries inside one piece's transfer (a cut resumed at once).
  let retry: RetryPolicy
  /// Retries of a piece that failed.
  let pieceRetry: HLSPieceRetry
  /// Pieces downloaded at once.
  let parallel: Int
  let pieces: [HLSPlan.Piece]
  /// What every piece's requests send.
  let requestOptions: RequestOptions
  /// The stream's cookies, shared by all its pieces.
  let cookieJar: CookieJar?
  /// The stream's rate budgets, shared by all its pieces.
  let rateLimiters: [RateLimiter]

  /// The runner of an HLS download's plan.
  init(download: HLSDownload, plan: HLSPlan) {
    self.init(
      folder: download.folder, journal: download.journal!, transport: download.transport,
      retry: download.retry, pieceRetry: download.pieceRetry,
      parallel: download.options.parallelSegments, pieces: plan.pieces,
      requestOptions: download.requestOptions, cookieJar: download.cookieJar,
      rateLimiters: download.rateLimiters)
  }

  /// A runner of `pieces` into `folder`.
  init(
    folder: URL, journal: TransferJournal, transport: any HTTPTransporting, retry: RetryPolicy,
    pieceRetry: HLSPieceRetry, parallel: Int, pieces: [HLSPlan.Piece],
    requestOptions: RequestOptions, cookieJar: CookieJar?, rateLimiters: [RateLimiter]
  ) {
    self.folder = folder
    self.journal = journal
    self.transport = transport
    self.retry = retry
    self.pieceRetry = pieceRetry
    self.parallel = parallel
    self.pieces = pieces
    self.requestOptions = requestOptions
    self.cookieJar = cookieJar
    self.rateLimiters = rateLimiters
  }

  /// Returns the bytes of every piece.
  func run(onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    async throws(Transfer.Error) -> Int64
  {
    let tally = Locked(HLSProgressTally(pieces: pieces.map(HLSProgressTally.Piece.init)))
    let rate = RateEstimator()
    let report = { @Sendable (progress: HLSDownload.Progress) in
      onProgress(
        OfflineProgress(
          bytes: progress.bytes, total: progress.total, totalIsEstimate: progress.totalIsEstimate,
          segmentsDone: progress.segmentsDone, segmentsTotal: progress.segmentsPlanned,
          bytesPerSecond: rate.update(bytes: progress.bytes)))
    }
    let reporter = Task {
      while !Task.isCancelled {
        report(tally.withLock { $0.progress() })
        try? await Task.sleep(for: .milliseconds(250))
      }
    }
    defer { reporter.cancel() }
    let limit = parallel
    let pieces = self.pieces
    let outcome: Result<Void, Transfer.Error> = await withTaskGroup(
      of: Result<Void, Transfer.Error>.self
    ) { group in
      var next = 0
      func addNext() {
        guard next < pieces.count else { return }
        let index = next
        next += 1
        group.addTask { await fetch(index, tally: tally) }
      }
      for _ in 0..<min(limit, pieces.count) { addNext() }
      for await result in group {
        if case .failure = result {
          group.cancelAll()
          return result
        }
        addNext()
      }
      return .success(())
    }
    // The reporter's last tick must land before the final report, never after it.
    reporter.cancel()
    await reporter.value
    if case .failure(let error) = outcome { throw error }
    syncFileSystem()
    let last = tally.withLock { $0.progress() }
    report(last)
    return last.bytes
  }

  private func fetch(
    _ index: Int, tally: Locked<HLSProgressTally>
  ) async -> Result<Void, Transfer.Error> {
    let piece = pieces[index]
    let destination = folder.appending(path: piece.local).path
    Self.carryOver(journal, destination: destination, to: piece.remote)
    let transfer = Transfer(
      url: piece.remote, destination: destination,
      journal: journal, transport: transport,
      configuration: pieceOptions(piece),
      requestOptions: requestOptions, cookieJar: cookieJar, rateLimiters: rateLimiters)
    tally.withLock { $0.pieceStarted(index, total: piece.slice?.length) }
    do {
      let outcome = try await pieceRetry.run(url: piece.remote, destination: destination) {
        () async throws(Transfer.Error) -> Transfer.Outcome in
        try await transfer.run { event in
          if case .progress(let progress) = event {
            tally.withLock { $0.pieceProgress(index, bytes: progress.bytes, total: progress.total) }
          }
        }
      }
      tally.withLock { $0.pieceFinished(index, length: outcome.length) }
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  /// The options of `piece`'s transfer: its SHA-256 computed as it streams (the journal
  /// keeps it; `verify` checks the piece against it), without chunk digests.
  private func pieceOptions(_ piece: HLSPlan.Piece) -> Transfer.Configuration {
    var options = Transfer.Configuration(
      computesSHA256: true, retry: retry, progressInterval: .milliseconds(250),
      replacesExistingFile: true, slice: piece.slice, syncsEachFile: false)
    options.hashesChunks = false
    return options
  }

  /// One `syncfs` for every piece written without a per-file fsync.
  private func syncFileSystem() {
    let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = Durability.syncFileSystem(holding: fd)
    close(fd)
  }
}
