import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// Starts working the queue in the background, until ``stop(suspendingRunning:)``.
  ///
  /// - Throws: ``OfflineError`` `storeBusy` when another process is the runner, `closed`
  ///   after ``close()``.
  public func start() throws(OfflineError) {
    guard !machine.closed else { throw OfflineError(.closed) }
    launchesStopped.withLock { $0 = false }
    guard runner.loop == nil else { return }
    try becomeRunner()
    startScheduler()
  }

  /// Starts working the queue for a call that asked for work, when
  /// ``Configuration/startsWhenAsked``: as ``start()``, except that when another process
  /// works the store's queue it leaves the work to that one (which sees the call within its
  /// poll interval) instead of waiting for it or failing.
  func startWhenAsked() {
    guard configuration.startsWhenAsked, runner.loop == nil, !machine.closed else { return }
    guard (try? becomeRunner(patience: .zero)) != nil else { return }
    startScheduler()
  }

  /// The runner's loop: a turn every poll interval until the manager stops.
  private func startScheduler() {
    runner.loop = Task { [weak self] in
      while !Task.isCancelled {
        guard let self else { return }
        await self.tick()
        try? await self.configuration.clock.sleep(for: self.configuration.pollInterval)
      }
    }
  }

  /// Works the queue until no content is left in `downloading` (contents waiting for the
  /// network, for space or for a retry count as left), then returns.
  ///
  /// - Throws: ``OfflineError`` `storeBusy` when another process is the runner.
  public func runUntilIdle() async throws(OfflineError) {
    try becomeRunner()
    while !Task.isCancelled {
      tick()
      let waiting = (try? index.contents.count(inState: .downloading)) ?? 0
      let canceling = (try? index.contents.count(inState: .canceling)) ?? 0
      if waiting == 0 && canceling == 0 && machine.running.isEmpty { return }
      await napBetweenTurns(configuration.pollInterval)
    }
  }

  /// Waits `interval`, or less: until ``wakeRunner()`` or the task's cancellation.
  private func napBetweenTurns(_ interval: Duration) async {
    guard !Task.isCancelled else { return }
    let token = runner.nap.nextToken()
    await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
        let clock = configuration.clock
        let timer = Task { [weak self] in
          try? await clock.sleep(for: interval)
          await self?.endNap(token)
        }
        runner.nap.end()?.resume()  // never two waiting: an earlier one goes on
        runner.nap.begin(waiter, timer: timer)
      }
    } onCancel: {
      Task { await self.endNap(token) }
    }
  }

  private func endNap(_ token: Int) {
    runner.nap.end(token)?.resume()
  }

  /// Ends the runner's nap: the last running download ended, so the queue may be done.
  func wakeRunner() {
    runner.nap.end()?.resume()
  }

  /// Stops working the queue and closes the manager: every event stream ends
  /// (``OfflineContent/events``, ``allEvents()``), and so does every
  /// ``OfflineContent/waitUntilDownloaded()``, with `closed`. What is running stops and stays
  /// `downloading`, to continue when a manager on the store works the queue again; its bytes
  /// on disk are recorded. Call it when done with the manager; ``start()`` afterwards throws
  /// `closed`.
  public func close() async {
    machine.didClose()
    await stop(suspendingRunning: false)
    hub.close()
  }

  /// Stops working the queue. With `suspendingRunning`, what is running is suspended (its
  /// partial data kept); without, it stays `downloading` and continues on the next start.
  /// Event streams go on; ``close()`` ends them.
  public func stop(suspendingRunning: Bool) async {
    stopLaunching()
    runner.loop?.cancel()
    runner.loop = nil
    await stopPlaybackRuns()
    // Until none is left (``QueueMachine/nextToStop``).
    while let id = machine.nextToStop {
      if suspendingRunning {
        suspendAsStopping(id)
      }
      await stopRunning(id)
    }
    flushFinished()  // finished files are recorded while this process is still the runner
    await waitForSyncingBatches()
    // Those of files whose batch failed, or that ended otherwise; unwritten, their next run
    // finds each file complete on disk and records it again.
    _ = logging("recording finished files in the journal", id: nil) {
      try commits.completions.flush()
    }
    runner.lock = nil
  }

  /// Stops starting downloads, at once and from any thread: it does not wait for the
  /// manager, which may be busy. What runs goes on; nothing new starts until ``start()``.
  /// An application shutting down calls it first (a download that ends must not start the
  /// next while the rest are stopped), then ``stop(suspendingRunning:)``.
  public nonisolated func stopLaunching() {
    launchesStopped.withLock { $0 = true }
  }

  private func becomeRunner(patience: Duration = .seconds(3)) throws(OfflineError) {
    if runner.holdsLock { return }
    guard let lock = RunnerLock(directory: directory, patience: patience) else {
      let holder = RunnerLock.holder(in: directory).map { " (process \($0))" } ?? ""
      throw OfflineError(
        .storeBusy("Another process\(holder) is running the queue of \(directory.path)."))
    }
    runner.lock = lock
    try Recovery(index: index, directory: directory).run()
    machine.didBecomeRunner(changeCounter: (try? index.contents.externalChangeCounter()) ?? 0)
    followStoredRateLimit(starting: true)
  }

  /// One turn of the runner: notice what other processes changed, then start what may start.
  func tick() {
    machine.upcoming.forget()  // a retry may have fallen due since the rows were read
    if let counter = try? index.contents.externalChangeCounter(),
      machine.didReadChangeCounter(counter)
    {
      reconcileExternalChanges()
      followReplacedURLs()  // `offline set-url`
      followStoredRateLimit()  // `offline limit`
    }
    stopUnreachable()
    flushFinished()
    recordStarts()
    pump()
  }

  /// Writes `starting` for the running downloads whose bytes have not come yet, in one
  /// transaction, so other processes see them starting rather than queued
  /// (``QueueMachine/unrecordedStarts``).
  private func recordStarts() {
    let ids = machine.unrecordedStarts
    guard !ids.isEmpty else { return }
    let written: Void? = logging("recording which downloads are starting", id: nil) {
      try index.contents.setWaitReason(.starting, ids: ids)
    }
    if written != nil { machine.didRecordStarting(ids) }
  }

  /// Follows changes made by other processes: a running download paused, canceled or
  /// deleted elsewhere is stopped, cancels are finished, and subscribers hear of new states.
  private func reconcileExternalChanges() {
    guard
      let canceling = logging(
        "reading the cancels to finish (the next poll reads them again)", id: nil,
        { try index.contents.needingRecovery(state: .canceling) }),
      let records = logging(
        "reading the contents running or watched here (the next poll reads them again)",
        id: nil,
        { try index.contents.records(ids: machine.watchedIDs) })
    else { return }
    let changes = machine.didChangeElsewhere(
      canceling: canceling.map(\.id), states: records.mapValues(\.offlineState))
    for change in changes {
      switch change {
      case .finishCleanup(let id):
        finishCleanupLogged(id)
      case .stopThenFinishCleanup(let id):
        guard let download = startStopping(id) else {
          finishCleanupLogged(id)
          continue
        }
        Task {
          await self.finishStopping(id, download)
          self.finishCleanupLogged(id)
        }
      case .stop(let id):
        Task { await self.stopRunning(id) }
      case .announce(let id, let before):
        guard let record = records[id] else { continue }
        announce(record)
        announceEndSeenFromOutside(record, after: before)
      }
    }
  }

  /// How many of the queue's rows a look reads at least (``UpcomingRows``): enough for the
  /// launches of a batch's worth of small files.
  static let upcomingRows = 32

  /// How many times the runner read the queue's rows that may start, for tests.
  var queueReads: Int { machine.upcoming.reads }

  /// Starts downloads while fewer than the parallel limit run: the machine decides which
  /// of the queue's rows start, wait or end (``QueueMachine/launches(from:committing:at:in:)``),
  /// handed the time, each host's reachability and the space of each folder.
  func pump() {
    let free = machine.freeSlots
    guard runner.holdsLock, !launchesStopped.withLock({ $0 }), free > 0 else { return }
    // Only rows that may start are read (what runs or waits in the batch is left out), and
    // once for several launches: until the contents change (``UpcomingRows``).
    let stamp = UpcomingRows.Stamp(
      revision: index.contents.revision,
      dataVersion: (try? index.contents.externalChangeCounter()) ?? -1)
    let committing = commits.ids
    // What a read leaves out, made only when the rows are read (once for several launches).
    let excluded = machine.upcoming.isCurrent(at: stamp) ? [] : machine.runningIDs.union(committing)
    let (index, files, now) = (self.index, self.files, configuration.clock.now)
    let candidates = machine.upcoming.records(at: stamp) {
      (try? index.contents.runnable(
        state: .downloading, now: now, limit: max(free * 4, Self.upcomingRows),
        excluding: excluded)) ?? []
    } unjournaled: { rows in
      // The journal of their files in one read too, rather than one each as they launch.
      Self.filesWithoutJournalRecord(rows, index: index, files: files)
    }
    let launches = machine.launches(
      from: candidates, committing: committing, at: configuration.clock.instant,
      in: surroundingsForTurn())
    carryOut(launches)
  }

  /// The ids of the file contents among `rows` whose destination the transfer journal has
  /// no record for, in one read; none when the journal cannot be read (each launch then
  /// looks its record up).
  private nonisolated static func filesWithoutJournalRecord(
    _ rows: [ContentRecord], index: OfflineIndex, files: ContentFiles
  ) -> Set<String> {
    let destinations = Dictionary(
      rows.compactMap { row -> (String, String)? in
        guard let url = URL(string: row.url), ContentDownload.Kind(url) == .file else {
          return nil
        }
        return (row.id, files.destination(of: row))
      }, uniquingKeysWith: { first, _ in first })
    guard !destinations.isEmpty,
      let journal = try? index.transfers.records(forDestinations: destinations.values)
    else { return [] }
    return Set(destinations.filter { journal[$0.value] == nil }.keys)
  }

  /// Starts content `id` now for a player that waits for it: when it is `downloading` and
  /// waits in the queue (behind the parallel limit, say), its download, beside the limit;
  /// when it is a `suspended` stream, a playback run that fetches only what players ask for
  /// (``startPlaybackRun(_:)``). Nothing when it runs, is being stopped or recorded, or this
  /// process does not work the queue.
  func launchForPlayback(_ id: String) {
    guard runner.holdsLock, !launchesStopped.withLock({ $0 }), !machine.runningIDs.contains(id),
      let record = try? index.contents.record(id: id)
    else { return }
    if record.state == .suspended { return startPlaybackRun(record) }
    guard record.state == .downloading else { return }
    carryOut(
      machine.launches(
        from: [record], committing: commits.ids, at: configuration.clock.instant,
        in: surroundings, aheadOfTheQueue: true))
  }

  /// What launches weigh, from this manager's reachability, file systems and margin.
  private var surroundings: QueueMachine.Surroundings {
    QueueMachine.Surroundings(
      isReachable: isReachable, space: space(for:), margin: configuration.minimumFreeSpace)
  }

  /// Starts, records the wait of, or ends each of `launches`.
  private func carryOut(_ launches: [QueueMachine.Launch]) {
    for launch in launches {
      switch launch {
      case .start(let record, let url, let host):
        self.launch(record, url: url, host: host)
      case .wait(let reason, let record):
        setWaitReason(reason, for: record)
      case .cannotStart(let record, let needed, let capacity):
        let error = OfflineError(
          .insufficientCapacity(
            needed: needed, capacity: capacity, path: files.folder(of: record).path),
          contentID: record.id)
        carryOutNow(EndDecision.cannotStart(error).steps, id: record.id)
      }
    }
  }

  /// Whether `host` is reachable now, as the configuration's reachability says.
  nonisolated func isReachable(_ host: String) -> Bool {
    if case .unreachable = configuration.reachability.isReachable(host: host) { return false }
    return true
  }

  /// Records why `record` is not moving (nil: it moves) and, when `announcing`, tells
  /// subscribers.
  func setWaitReason(_ reason: WaitReason?, for record: ContentRecord, announcing: Bool = true) {
    guard record.waitReason != reason?.stored else { return }
    let written: Void? = logging("recording why it waits", id: record.id) {  // one UPDATE, no read
      try index.contents.setWaitReason(reason?.stored, id: record.id)
    }
    guard announcing, written != nil else { return }
    var changed = record  // as written: announced without reading it again
    changed.waitReason = reason?.stored
    announce(changed)
  }

  /// Stops running downloads whose host became unreachable, so they wait for the network
  /// instead of for a stall timeout; their retry budget is untouched.
  private func stopUnreachable() {
    for id in machine.unreachable(isReachable: isReachable) {
      Task { await self.stopRunning(id) }
      if let record = try? index.contents.record(id: id) { setWaitReason(.network, for: record) }
    }
  }

  /// Cancels the download of `id` if it runs here, waits until it has stopped, and records
  /// the bytes it had on disk, so a snapshot taken now says what is there.
  func stopRunning(_ id: String) async {
    guard let download = startStopping(id) else { return }
    await finishStopping(id, download)
  }

  /// Takes the download of `id` out of the running ones and cancels it; from here until
  /// ``finishStopping(_:_:)`` it counts as stopping, so nothing starts or cleans it meanwhile.
  private func startStopping(_ id: String) -> RunningDownload? {
    guard let download = machine.startStopping(id) else { return nil }
    download.task.cancel()
    return download
  }

  /// Waits until a download ``startStopping(_:)`` cancelled has stopped, and records the
  /// bytes it had on disk.
  private func finishStopping(_ id: String, _ download: RunningDownload) async {
    await download.task.value
    machine.didStop(id)
    saveLastProgress(of: id)
  }

  /// Writes the last progress sent for `id` to the index (it is written there at most once
  /// a second while bytes come), so snapshots and manifests say what is on disk.
  func saveLastProgress(of id: String) {
    guard let last = hub.lastProgress(of: id) else { return }
    _ = logging("saving its progress (the journal keeps the bytes)", id: id) {
      try index.contents.updateProgress(
        id: id, bytes: last.bytes, total: last.total, totalIsEstimate: last.totalIsEstimate)
    }
  }

  /// Suspends running content `id` as the manager stops. A content that left `downloading`
  /// meanwhile (it finished, or another process paused it) has nothing to suspend; any other
  /// failure is logged, and the content goes on at the next start.
  private func suspendAsStopping(_ id: String) {
    do {
      try transition(id: id, .suspend) { $0.waitReason = nil }
    } catch  where error.code == .invalidTransition {
      return
    } catch {
      configuration.log(
        OfflineLogMessage(
          contentID: id, message: "suspending it as the manager stops failed: \(error)"))
    }
  }

  /// ``finishCleanup(_:)``, its failure logged: the content stays `canceling` with its
  /// cleanup pending, and the next poll tries again.
  func finishCleanupLogged(_ id: String) {
    _ = logging("deleting the files of a cancel or a delete (the next poll tries again)", id: id) {
      try finishCleanup(id)
    }
  }
}
