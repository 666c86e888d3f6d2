import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// Starts the transfer of `record` in a task of its own. Its events come back to the actor
  /// in order through a stream; its end through ``didEnd(_:outcome:)``.
  func launch(_ record: ContentRecord, url: URL, host: String) {
    let id = record.id
    let stored: DownloadConfiguration.Stored
    do {
      stored = try DownloadConfiguration.stored(in: record)
    } catch {
      // Options this version cannot read: never run with defaults.
      carryOutNow(EndDecision.cannotStart(error).steps, id: id)
      return
    }
    let session: ContentSession
    let mirrors: [URL]
    let peers: [URL]
    let pieces: PieceChecks?
    do {
      // Its options were given in this process or another one: read from the store.
      (session, mirrors, peers) = try fetchContext(of: record, url: url)
      pieces = record.hasPieceChecks ? try keptPieceChecks(of: id) : nil
    } catch {
      carryOutNow(EndDecision.cannotStart(error).steps, id: id)
      return
    }
    if refreshesExpiredURL(record, url: url) { return }  // the app said it expired
    // It looks at the URL's path extension, which Foundation parses anew each time: once.
    let kind = ContentDownload.Kind(url)
    let work = self.work(
      record, kind: kind, session: session, mirrors: mirrors, peers: peers, pieces: pieces,
      options: stored,
      journalHasNoRecord: machine.upcoming.takeHasNoJournalRecord(id))
    // A playback run of the content (resumed in another process, say) ends before this one
    // writes its folder.
    let playbackRun = playbackRuns[id]
    playbackRun?.cancel()
    let task = Task { [weak self] in
      await playbackRun?.value
      let (events, sink) = AsyncStream.makeStream(of: RunReport.self)
      let job = Task { () -> Result<Transfer.Outcome, Transfer.Error> in
        defer { sink.finish() }
        return await work { sink.yield($0) }
      }
      await withTaskCancellationHandler {
        for await report in events {
          switch report {
          case .progress(let progress): await self?.didProgress(progress, for: id)
          case .restarted(let reason): await self?.tell(.restarted(reason), to: id)
          }
        }
        await self?.didEnd(id, outcome: await job.value)
      } onCancel: {
        job.cancel()
      }
    }
    // Its URL, to notice one replaced while it runs.
    var download = RunningDownload(
      task: task, host: host, launchedURL: record.url, lastSaved: configuration.clock.instant)
    // A stream syncs its own pieces; a file is synced with the others that finish near it.
    download.syncsLater = !kind.isStream
    download.indexedReason = record.waitReason
    switch record.waitReason {
    case .network, .storage, .retry:
      download.announcesMoving = true
      // The index must not go on saying it waits: "starting" now, "running" once bytes
      // come. Subscribers hear of the start from its progress.
      setWaitReason(.starting, for: record, announcing: false)
      download.indexedReason = .starting
    case .queued, .starting, nil:
      // Marked `starting` at the runner's next turn if its bytes have not come by then
      // (``recordStarts()``); subscribers' snapshots say so at once.
      break
    }
    machine.didLaunch(id, as: download)
    countWriters()
  }

  /// A running download, reporting what subscribers hear of as it goes, and its outcome.
  typealias Work =
    @Sendable (@escaping @Sendable (RunReport) -> Void) async -> Result<
      Transfer.Outcome, Transfer.Error
    >

  /// What a running download reports before its outcome.
  enum RunReport: Sendable {
    /// Bytes arrived.
    case progress(OfflineProgress)
    /// It started over from the first byte, for this reason.
    case restarted(Transfer.RestartReason)
  }

  /// The work of content `record`: one ``ContentDownload`` of its kind.
  ///
  /// A file's transfer neither fsyncs the file nor its folder: the manager syncs many
  /// finished files at once (``GroupCommit``) before it records them downloaded, and does
  /// the retrying; its `complete` record waits for that batch, and a journal entry written
  /// for an earlier URL of the content goes on under this one, validators and all, so the
  /// resume asks the new URL with `If-Range` instead of dropping the bytes. A stream
  /// retries each piece itself before failing, except a refusal the ``URLRefresh`` hook may
  /// cure; each piece `expecting` names must come with that SHA-256 (a repair's); with
  /// `onlyWhatPlayersAsk`, it fetches only what players ask for, a stream's pieces or a
  /// file's ranges (a playback run, ``startPlaybackRun(_:)``); it is recorded downloaded
  /// here. `mirrors`: a file's other sources, kept with its options (``keptFetch(of:)``);
  /// `peers`: nearby services asked first (``OfflineSource/peers``), kept the same way;
  /// `pieces`: the SHA-256 of each piece of a file, kept with it (``keptPieceChecks(of:)``).
  /// `journalHasNoRecord`: the runner read the journal with the queue's rows and found no
  /// record for the file (``UpcomingRows/takeHasNoJournalRecord(_:)``).
  func work(
    _ record: ContentRecord, kind: ContentDownload.Kind, session: ContentSession,
    mirrors: [URL], peers: [URL] = [], pieces: PieceChecks? = nil,
    options: DownloadConfiguration.Stored,
    expecting: [String: String] = [:],
    onlyWhatPlayersAsk: Duration? = nil, journalHasNoRecord: Bool = false
  ) -> Work {
    let files = self.files
    var file = Transfer.Configuration(
      computesSHA256: true, retry: RetryPolicy(maximumAttempts: 1),
      replacesExistingFile: true, syncsEachFile: false,
      connections: options.connections ?? .adaptive
    ).expecting(sha256: record.expectedSHA256)
    file.clock = configuration.clock
    if !kind.isStream {
      file.mirrors = mirrors
      file.peers = peers
      file.pieces = pieces
      file.expectedLength = pieces?.size
    }
    // A plain file whose first answer is, or names, a Metalink is re-planned from it.
    file.stopsAtMetalink =
      !kind.isStream && pieces == nil && onlyWhatPlayersAsk == nil
      && !metalinkReplans.withLock { $0.replanned.contains(record.id) }
    let replans = metalinkReplans
    let playbacks = self.playbacks
    if !kind.isStream { file.playback = playbacks.playback(of: record.id) }
    let folder = kind.isStream ? files.folder(id: record.id) : files.folder(of: record)
    // A part of a split live recording records its share alone; the queue's run of it (not
    // a repair's, nor a player's) queues the next part when it ends.
    let part = kind.isStream ? QueuedLivePart(id: record.id, live: options.stream.live) : nil
    var stream = options.stream
    if let part { stream.live = part.recordingOptions }
    let endsPart = onlyWhatPlayersAsk == nil && expecting.isEmpty ? part : nil
    let queueNext = queuesNextPart(after: record, options: options)
    var made = ContentDownload(
      kind: kind, session: session, journal: index.transfers,
      destination: kind.isStream ? folder.path : files.destination(of: record), file: file,
      stream: stream.cappingConnections(at: configuration.maxStreamConnections),
      refreshesURL: configuration.urlRefresh != nil, expectedPieceSHA256: expecting,
      queuedFile: files.completions.map {
        Transfer.QueuedFile(
          completions: $0, responses: commits.responses, journalHasNoRecord: journalHasNoRecord)
      },
      streamPlayback: kind.isStream ? streamPlaybacks.playback(of: record.id) : nil,
      onlyWhatPlayersAsk: onlyWhatPlayersAsk)
    let id = record.id
    let streamPlaybacks = self.streamPlaybacks
    let log = configuration.log
    made.log = { log(OfflineLogMessage(contentID: id, message: $0)) }
    let download = made
    return { report in
      defer {
        playbacks.forgetIfIdle(id)
        streamPlaybacks.forgetIfIdle(id)
      }
      do throws(Transfer.Error) {
        // `files/` or `content/<id>` linked out of the store: never followed.
        try Self.refuseLinkedFolder(folder, of: record, files: files)
        let outcome: ContentDownload.Outcome
        if endsPart != nil,
          let ended = QueuedLivePart.endedEarlier(
            in: folder, index: files.file(of: record), bytes: record.bytes)
        {
          outcome = .stream(ended)  // it ended before a kill: what follows is left to do
        } else {
          outcome = try await download.run { event in
            switch event {
            case .progress(let progress): report(.progress(progress))
            case .restarted(let reason): report(.restarted(reason))
            case .detail(.peerInsteadOfOrigin(let peer, let reason)):
              log(
                OfflineLogMessage(
                  contentID: id,
                  message: "the origin cannot serve the file (\(reason)): the peer"
                    + " \(peer.redactedForDisplay) serves it whole, checked against the length"
                    + " and SHA-256 of the peer's own record"))
            case .detail, .pieceRetry, .recordingLive: break
            }
          }
        }
        // The next part is queued before this one is recorded downloaded: a kill between
        // the two runs this one's end again, which finds the next part queued.
        if let endsPart, let next = try await endsPart.next(after: download),
          let error = await queueNext(next)
        {
          throw error
        }
        switch outcome {
        case .file(let outcome):
          return .success(outcome)  // its manifest is written by the batch's flush
        case .stream(let outcome):
          // Pieces are on disk after one syncfs; the manifest's folder fsync makes the
          // offline playlists' or MPD's renames durable before it says downloaded.
          files.recordDownloaded(record, length: outcome.bytes, sha256: nil, recordsPieces: true)
          var done = Transfer.Outcome(
            destination: outcome.index.path, length: outcome.bytes, sha256: nil,
            wasAlreadyComplete: false, bytesReceived: outcome.bytes, check: .length)
          // What each CDN (DASH `BaseURL` or service location, HLS backup or pathway)
          // served, kept like a file's mirrors for `info` and `ls`.
          done.sources = outcome.sources
          return .success(done)
        }
      } catch {
        if case .describedByMetalink(let document) = error.kind,
          let plan = try? await MetalinkPlan.fetch(document, session: session)
        {
          replans.withLock { $0.plans[id] = plan }
        }
        return .failure(error)
      }
    }
  }

  /// Tells the batch of response records how many downloads run: its leader waits for
  /// others only while more than one may join (``ResponseRecordBatch/writers``).
  private func countWriters() {
    commits.responses.writers.store(machine.running.count, ordering: .relaxed)
  }

  /// Retries inside one piece of a stream (HLS or DASH); the piece engine retries the
  /// piece itself after these.
  static let pieceRetry = RetryPolicy(
    maximumAttempts: 3, initialDelay: .milliseconds(500), maximumDelay: .seconds(5))

  /// Refuses a content whose folder in the store (a stream's or a file's `content/<id>`,
  /// the shared `files/` of single files) is a symbolic link or something else than a
  /// folder: never followed out of the store, as a rebuild never adopts one
  /// (``ContentFolders`` guards the folders inside a stream's).
  private static func refuseLinkedFolder(
    _ folder: URL, of record: ContentRecord, files: ContentFiles
  ) throws(Transfer.Error) {
    let folder = folder.path
    var info = stat()
    guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return }
    let code = (info.st_mode & S_IFMT) == S_IFLNK ? ELOOP : ENOTDIR
    throw Transfer.Error(
      .file(TransferFileError(.createDirectory, errno: code, path: folder)),
      url: URL(string: record.url) ?? files.directory, destination: folder)
  }

  /// A transfer's event: progress goes to subscribers (never backwards) and, once a second,
  /// to the index so other processes see it.
  func didProgress(_ progress: OfflineProgress, for id: String) {
    guard let steps = machine.didProgress(progress, of: id, at: configuration.clock.instant) else {
      return
    }
    if steps.recordsMoving {
      _ = logging("recording it moves", id: id) { try index.contents.setWaitReason(nil, id: id) }
    }
    if steps.announcesMoving { announce(id: id) }
    let sent = tellProgress(progress, to: id)
    if steps.savesProgress {
      _ = logging("saving its progress (the journal keeps the bytes)", id: id) {
        try index.contents.updateProgress(
          id: id, bytes: sent.bytes, total: progress.total,
          totalIsEstimate: progress.totalIsEstimate)
      }
    }
  }

  /// A transfer ended: the machine decides what follows (``QueueMachine/didEnd(_:outcome:)``).
  /// A download stopped on purpose (paused, canceled, waiting for the network) changes
  /// nothing here; the others finish, wait for a retry, for space or for the network, or
  /// are suspended with their error.
  func didEnd(_ id: String, outcome: Result<Transfer.Outcome, Transfer.Error>) {
    if case .success(let done) = outcome { keepSourceReports(done.sources, of: id) }
    if let plan = metalinkPlan(id, outcome: outcome) {
      // Not a failure: the content is what the Metalink describes, queued again at once.
      let end = machine.didEnd(id, outcome: outcome)
      countWriters()
      replan(id, with: plan)
      if case .stopped = end {
        recordSuspended(id)
        return
      }
      pump()
      if machine.running.isEmpty { wakeRunner() }
      return
    }
    let end = machine.didEnd(id, outcome: outcome)
    countWriters()
    if case .stopped = end {
      saveLastProgress(of: id)  // stopped (by a suspend, say): its bytes, then its manifest
      recordSuspended(id)  // its parts are still now
      return
    }
    defer {
      pump()
      if machine.running.isEmpty { wakeRunner() }  // perhaps done: runUntilIdle looks at once
    }
    switch end {
    case .stopped:
      break
    case .commit(let result):
      commits.add(id, result)
      pump()  // what starts now runs while the batch fills
      if commits.isDue(running: machine.running.count) { flushFinished() }
    case .finished(let steps):
      carryOutNow(steps, id: id)
    case .failed(let error, let progressed, let host):
      didFail(id, error: error, progressed: progressed, host: host)
    }
  }

  /// A download of `id` failed (or its batch could not be made durable): the machine
  /// decides whether it waits, retries or is suspended
  /// (``QueueMachine/didFail(_:of:record:progressed:at:retry:refresh:)``), handed its
  /// record, its host's reachability and the time.
  func didFail(_ id: String, error: Transfer.Error, progressed: Bool, host: String) {
    let record = try? index.contents.record(id: id)
    let failure = EndDecision.Failure(
      error, contentID: id, hostIsUnreachable: error.isTransient && !isReachable(host))
    let steps = machine.didFail(
      failure, of: id, record: record, progressed: progressed, at: configuration.clock.now,
      retry: configuration.retry, refresh: configuration.urlRefresh)
    carryOutNow(steps, id: id)
  }

  /// Fetches the keys of HLS content `id` again; see ``OfflineContent/renewKeys()``.
  func renewKeys(id: String) async throws(OfflineError) -> Int {
    let download = HLSDownload(
      folder: files.folder(id: id), journal: index.transfers, session: try session(ofContent: id))
    do {
      let count = try await download.renewKeys()
      files.recordRenewedKeys(of: id)
      tell(.keysRenewed(count: count), to: id)
      return count
    } catch {
      throw OfflineError(.transfer(error), contentID: id)
    }
  }
}
