import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// Starts the transfer of `record` in a task of its own. Its events come back to the actor
  /// in order through a stream; its end through ``didEnd(_:outcome:)``.
  func launch(_ record: ContentRecord, url: URL, host: String) {
    let id = record.id
    let stored: DownloadConfig.Stored
    do {
      stored = try DownloadConfig.stored(in: record)
    } catch {
      fail(record, error)  // options this version cannot read: never run with defaults
      return
    }
    do {
      _ = try storedRequestOptions(of: id)  // given in this process or another one
    } catch {
      fail(record, error)
      return
    }
    if refreshesExpiredURL(record, url: url) { return }  // the app said it expired
    carryOverJournal(of: record, to: url)  // after a replaced URL, resume rather than restart
    let work =
      url.isHLSPlaylist
      ? streamWork(record, url: url, options: stored)
      : url.isDASHManifest
        ? dashWork(record, url: url, options: stored) : fileWork(record, url: url, options: stored)
    let task = Task { [weak self] in
      let (events, sink) = AsyncStream.makeStream(of: OfflineProgress.self)
      let job = Task { () -> Result<Transfer.Outcome, Transfer.Error> in
        defer { sink.finish() }
        return await work { sink.yield($0) }
      }
      await withTaskCancellationHandler {
        for await progress in events { await self?.didProgress(progress, for: id) }
        await self?.didEnd(id, outcome: await job.value)
      } onCancel: {
        job.cancel()
      }
    }
    var download = RunningDownload(task: task, host: host)
    switch record.waitReason {
    case .network, .storage, .retry: download.announcesMoving = true
    default: break
    }
    running[id] = download
    knownStates[id] = .downloading
    // "running" only once bytes come; subscribers hear of the start from its progress.
    setWaitReason(.starting, for: record, announcing: false)
  }

  typealias Work =
    @Sendable (@escaping @Sendable (OfflineProgress) -> Void) async -> Result<
      Transfer.Outcome, Transfer.Error
    >

  /// One file: one ``Transfer``; the manager does the retrying.
  private func fileWork(_ record: ContentRecord, url: URL, options: DownloadConfig.Stored)
    -> Work
  {
    let files = self.files
    let transfer = Transfer(
      url: url, destination: files.destination(of: record), journal: index.transfers,
      transport: transport,
      options: Transfer.Options(
        retry: RetryPolicy(maximumAttempts: 1), replacesExistingFile: true,
        connections: options.connections ?? .adaptive
      ).expecting(sha256: record.expectedSHA256),
      requestOptions: requestOptions[record.id] ?? RequestOptions(), rateLimiters: [rateLimiter])
    return { report in
      do throws(Transfer.Error) {
        let outcome = try await transfer.run { event in
          if case .progress(let progress) = event { report(progress) }
        }
        // The file is durable (fsynced, renamed, folder fsynced): now the manifest may say
        // so, here in the download's task rather than on the actor.
        files.recordDownloaded(record, length: outcome.length, sha256: outcome.sha256)
        return .success(outcome)
      } catch {
        return .failure(error)
      }
    }
  }

  /// An HLS stream: an ``HLSDownload`` into the content's folder, which retries each
  /// segment itself before failing.
  private func streamWork(_ record: ContentRecord, url: URL, options: DownloadConfig.Stored)
    -> Work
  {
    let files = self.files
    let download = HLSDownload(
      url: url, folder: files.folder(id: record.id), options: options.hls,
      journal: index.transfers,
      transport: transport,
      retry: Self.pieceRetry,
      requestOptions: requestOptions[record.id] ?? RequestOptions(), rateLimiters: [rateLimiter])
    return Self.streamWork(record, files: files) { report throws(Transfer.Error) in
      try await download.run(onProgress: report)
    }
  }

  /// Retries inside one piece of a stream (HLS or DASH); the piece engine retries the
  /// piece itself after these.
  static let pieceRetry = RetryPolicy(
    maximumAttempts: 3, initialDelay: .milliseconds(500), maximumDelay: .seconds(5))

  /// The work of a stream whose download `run` does: its outcome recorded as downloaded.
  static func streamWork(
    _ record: ContentRecord, files: ContentFiles,
    run:
      @escaping @Sendable (@escaping @Sendable (OfflineProgress) -> Void)
      async throws(Transfer.Error) -> HLSDownload.Outcome
  ) -> Work {
    return { report in
      do throws(Transfer.Error) {
        let outcome = try await run(report)
        // Pieces are on disk after one syncfs; the manifest's folder fsync makes the
        // offline playlists' or MPD's renames durable before it says downloaded.
        files.recordDownloaded(record, length: outcome.bytes, sha256: nil)
        return .success(
          Transfer.Outcome(
            destination: outcome.index.path, length: outcome.bytes, sha256: nil,
            wasAlreadyComplete: false, bytesReceived: outcome.bytes, check: .length))
      } catch {
        return .failure(error)
      }
    }
  }

  /// A transfer's event: progress goes to subscribers (never backwards) and, once a second,
  /// to the index so other processes see it.
  func didProgress(_ progress: OfflineProgress, for id: String) {
    guard var download = running[id] else { return }
    if download.startBytes == nil, let record = try? index.contents.record(id: id) {
      // Receiving: no longer "starting"; news only after a wait subscribers were told of.
      setWaitReason(nil, for: record, announcing: download.announcesMoving)
    }
    let sent = hub.sendProgress(progress, to: id)
    download.lastBytes = progress.bytes
    if download.startBytes == nil { download.startBytes = progress.bytes }
    let now = ContinuousClock.now
    if now - download.lastSaved >= .seconds(1) {
      download.lastSaved = now
      try? index.contents.updateProgress(
        id: id, bytes: sent.bytes, total: progress.total, totalIsEstimate: progress.totalIsEstimate)
    }
    running[id] = download
  }

  /// A transfer ended. A download stopped on purpose (paused, canceled, waiting for the
  /// network) ends as cancelled and changes nothing here; the others finish, wait for a
  /// retry, wait for space or the network, or are suspended with their error.
  func didEnd(_ id: String, outcome: Result<Transfer.Outcome, Transfer.Error>) {
    guard let download = running.removeValue(forKey: id) else {
      saveLastProgress(of: id)  // stopped (by a suspend, say): its bytes, then its manifest
      recordSuspended(id)  // its parts are still now
      return
    }
    defer { pump() }
    switch outcome {
    case .success(let result):
      CrashPoint.reach(.finishBeforeDownloaded)
      transition(id: id, .finished) { record in
        record.bytes = result.length
        record.total = result.length
        record.totalIsEstimate = false
        record.waitReason = nil
        record.retryCount = 0
        record.lastError = nil
        record.lastErrorKind = nil
      }
      hub.send(.finished, to: id)
    case .failure(let error):
      didFail(id, error: error, progressed: download.progressed, host: download.host)
    }
  }

  private func didFail(_ id: String, error: Transfer.Error, progressed: Bool, host: String) {
    if case .cancelled = error.kind { return }
    guard let record = try? index.contents.record(id: id), record.state == .downloading
    else { return }
    if refreshesURL(id, after: error, progressed: progressed) { return }  // 401, 403, 410
    let failure = OfflineError(.transfer(error), contentID: id)
    if error.discardedData {
      failDiscarding(record, failure)
      return
    }
    if error.isOutOfSpace {
      setWaitReason(.storage, for: record)
      return
    }
    if error.isTransient, case .unreachable = configuration.reachability.isReachable(host: host) {
      setWaitReason(.network, for: record)
      return
    }
    let failures = progressed ? 1 : record.retryCount + 1
    if error.isTransient && failures < configuration.retry.maximumAttempts {
      let delay = configuration.retry.delay(afterFailures: failures, retryAfter: error.retryAfter)
      let at = Date().addingTimeInterval(
        Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
      _ = try? index.contents.update(id: id) { stored in
        stored.retryCount = failures
        stored.waitReason = .retry(at: at)
        stored.lastError = failure.description
        stored.lastErrorKind = failure.kindName
      }
      hub.send(.waiting(.retry(at: at)), to: id)
      return
    }
    transition(id: id, .failedKeepingData) { stored in
      stored.retryCount = failures
      stored.waitReason = nil
      stored.lastError = failure.description
      stored.lastErrorKind = failure.kindName
    }
    recordSuspended(id)
    hub.send(.error(failure), to: id)
    hub.send(.suspended, to: id)
  }

  /// Ends `record` in `notDownloaded` with `failure`: the transfer threw its bytes away (a
  /// checksum mismatch), so there is nothing a resume could go on from. Its folder and
  /// manifests go too, so nothing claims otherwise.
  private func failDiscarding(_ record: ContentRecord, _ failure: OfflineError) {
    files.forgetManifests(of: record)
    try? files.delete(record)
    hub.resetProgress(of: record.id)
    hub.send(.error(failure), to: record.id)
    transition(id: record.id, .failedDiscardingData) { stored in
      stored.bytes = 0
      stored.waitReason = nil
      stored.retryCount = 0
      stored.lastError = failure.description
      stored.lastErrorKind = failure.kindName
    }
  }

  /// Suspends `record` with `error` before it ran (its stored options cannot be read).
  private func fail(_ record: ContentRecord, _ error: OfflineError) {
    transition(id: record.id, .failedKeepingData) { stored in
      stored.waitReason = nil
      stored.lastError = error.description
      stored.lastErrorKind = error.kindName
    }
    hub.send(.error(error), to: record.id)
    hub.send(.suspended, to: record.id)
  }

  /// Fetches the keys of HLS content `id` again; see ``OfflineContent/renewKeys()``.
  func renewKeys(id: String) async throws(OfflineError) -> Int {
    let record = try indexStep { try index.contents.record(id: id) }
    guard let record, let url = URL(string: record.url) else {
      throw OfflineError(.unknownContent(id), contentID: id)
    }
    let download = HLSDownload(
      url: url, folder: files.folder(id: id), journal: index.transfers, transport: transport,
      requestOptions: try storedRequestOptions(of: id))
    do {
      let count = try await download.renewKeys()
      hub.send(.keysRenewed(count: count), to: id)
      return count
    } catch {
      throw OfflineError(.transfer(error), contentID: id)
    }
  }
}
