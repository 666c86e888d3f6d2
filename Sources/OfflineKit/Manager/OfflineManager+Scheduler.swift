import Foundation
import OfflineHTTP
import OfflineStore

/// A download the runner is carrying out.
struct RunningDownload {
  let task: Task<Void, Never>
  let host: String
  /// Bytes on disk when the transfer started, from its first progress report.
  var startBytes: Int64?
  /// Bytes on disk at its latest progress report.
  var lastBytes: Int64 = 0
  var lastSaved = ContinuousClock.now

  /// Whether bytes arrived during this attempt (a retry budget starts over then).
  var progressed: Bool { lastBytes > (startBytes ?? lastBytes) }
}

extension OfflineManager {
  /// Starts working the queue in the background, until ``stop(suspendingRunning:)``.
  ///
  /// - Throws: ``OfflineError`` `storeBusy` when another process is the runner.
  public func start() throws(OfflineError) {
    guard scheduler == nil else { return }
    try becomeRunner()
    scheduler = Task { [weak self] in
      while !Task.isCancelled {
        guard let self else { return }
        await self.tick()
        try? await Task.sleep(for: self.configuration.pollInterval)
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
      let waiting = (try? index.contents.count(inState: OfflineState.downloading.rawValue)) ?? 0
      let canceling = (try? index.contents.count(inState: OfflineState.canceling.rawValue)) ?? 0
      if waiting == 0 && canceling == 0 && running.isEmpty { return }
      try? await Task.sleep(for: configuration.pollInterval)
    }
  }

  /// Stops working the queue. With `suspendingRunning`, what is running is suspended (its
  /// partial data kept); without, it stays `downloading` and continues on the next start.
  public func stop(suspendingRunning: Bool) async {
    scheduler?.cancel()
    scheduler = nil
    for id in Array(running.keys) {
      if suspendingRunning {
        _ = try? transition(id: id, .suspend) { $0.waitReason = nil }
        hub.send(.suspended, to: id)
      }
      await stopRunning(id)
    }
    runnerLock = nil
  }

  private func becomeRunner() throws(OfflineError) {
    if runnerLock != nil { return }
    guard let lock = RunnerLock(directory: directory, patience: .seconds(3)) else {
      let holder = RunnerLock.holder(in: directory).map { " (process \($0))" } ?? ""
      throw OfflineError(
        .storeBusy("Another process\(holder) is running the queue of \(directory.path)."))
    }
    runnerLock = lock
    try Recovery(index: index, directory: directory).run()
    lastExternalChange = (try? index.contents.externalChangeCounter()) ?? 0
  }

  /// One turn of the runner: notice what other processes changed, then start what may start.
  func tick() {
    if let counter = try? index.contents.externalChangeCounter(), counter != lastExternalChange {
      lastExternalChange = counter
      reconcileExternalChanges()
    }
    stopUnreachable()
    pump()
  }

  /// Follows changes made by other processes: a running download paused, canceled or
  /// deleted elsewhere is stopped, cancels are finished, and subscribers hear of new states.
  private func reconcileExternalChanges() {
    guard let records = try? index.contents.needingRecovery(state: OfflineState.canceling.rawValue)
    else { return }
    for record in records {
      Task { await self.stopRunning(record.id) }
      try? finishCleanup(record.id)
    }
    for id in Array(running.keys) {
      guard let record = try? index.contents.record(id: id),
        record.state == OfflineState.downloading.rawValue
      else {
        Task { await self.stopRunning(id) }
        continue
      }
    }
    for (id, known) in knownStates {
      guard let record = try? index.contents.record(id: id),
        let state = OfflineState(rawValue: record.state), state != known
      else { continue }
      knownStates[id] = state
      hub.send(.stateChanged(state), to: id)
      if state == .suspended { hub.send(.suspended, to: id) }
      if known == .suspended && state == .downloading { hub.send(.resumed, to: id) }
    }
  }

  /// Starts downloads while fewer than the parallel limit run.
  func pump() {
    guard runnerLock != nil else { return }
    let free = configuration.parallelDownloads - running.count
    guard free > 0 else { return }
    let candidates =
      (try? index.contents.runnable(
        state: OfflineState.downloading.rawValue, now: Date(), limit: running.count + free * 4))
      ?? []
    var started = 0
    for record in candidates where running[record.id] == nil && !stopping.contains(record.id) {
      guard started < free else { break }
      guard let url = URL(string: record.url), let host = url.host() else { continue }
      if case .unreachable = configuration.reachability.isReachable(host: host) {
        setWaitReason(.network, for: record)
        continue
      }
      if !hasSpace(for: record) {
        setWaitReason(.storage, for: record)
        continue
      }
      launch(record, url: url, host: host)
      started += 1
    }
  }

  private func hasSpace(for record: ContentRecord) -> Bool {
    let folder = files.folder(id: record.id)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let remaining = max(0, (record.total ?? 0) - record.bytes)
    if let quota = configuration.storeQuota, let usage = try? index.cache.storeUsage(),
      usage.totalBytes + remaining > quota
    {
      return false
    }
    guard let available = StorageSpace.available(at: folder.path) else { return true }
    return available - remaining >= configuration.minimumFreeSpace
  }

  func setWaitReason(_ reason: WaitReason?, for record: ContentRecord) {
    guard record.waitReason != reason?.name else { return }
    _ = try? index.contents.update(id: record.id) { stored in
      stored.waitReason = reason?.name
      if case .retry(let at) = reason { stored.retryAt = at } else { stored.retryAt = nil }
    }
    hub.send(.waiting(reason), to: record.id)
  }

  /// Stops running downloads whose host became unreachable, so they wait for the network
  /// instead of for a stall timeout; their retry budget is untouched.
  private func stopUnreachable() {
    for (id, download) in running {
      if case .unreachable = configuration.reachability.isReachable(host: download.host) {
        Task { await self.stopRunning(id) }
        if let record = try? index.contents.record(id: id) { setWaitReason(.network, for: record) }
      }
    }
  }

  /// Cancels the download of `id` if it runs here, and waits until it has stopped.
  func stopRunning(_ id: String) async {
    guard let download = running.removeValue(forKey: id) else { return }
    stopping.insert(id)
    download.task.cancel()
    await download.task.value
    stopping.remove(id)
  }
}
