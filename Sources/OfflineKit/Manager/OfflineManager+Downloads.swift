import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// Starts the transfer of `record` in a task of its own. Its events come back to the actor
  /// in order through a stream; its end through ``didEnd(_:outcome:)``.
  func launch(_ record: ContentRecord, url: URL, host: String) {
    let transfer = Transfer(
      url: url, destination: files.destination(of: record), journal: index.transfers,
      transport: transport,
      options: Transfer.Options(
        expectedSHA256: record.expectedSHA256, retry: RetryPolicy(maximumAttempts: 1),
        replacesExistingFile: true))
    let id = record.id
    let task = Task { [weak self] in
      let (events, sink) = AsyncStream.makeStream(of: Transfer.Event.self)
      let work = Task { () -> Result<Transfer.Outcome, Transfer.Error> in
        defer { sink.finish() }
        do throws(Transfer.Error) {
          return .success(try await transfer.run { sink.yield($0) })
        } catch {
          return .failure(error)
        }
      }
      await withTaskCancellationHandler {
        for await event in events { await self?.didReceive(event, for: id) }
        await self?.didEnd(id, outcome: await work.value)
      } onCancel: {
        work.cancel()
      }
    }
    running[id] = RunningDownload(task: task, host: host)
    knownStates[id] = .downloading
    setWaitReason(nil, for: record)
  }

  /// A transfer's event: progress goes to subscribers (never backwards) and, once a second,
  /// to the index so other processes see it.
  func didReceive(_ event: Transfer.Event, for id: String) {
    guard var download = running[id], case .progress(let progress) = event else { return }
    let sent = hub.sendProgress(
      OfflineProgress(
        bytes: progress.bytes, total: progress.total, totalIsEstimate: false,
        bytesPerSecond: progress.bytesPerSecond), to: id)
    download.lastBytes = progress.bytes
    if download.startBytes == nil { download.startBytes = progress.bytes }
    let now = ContinuousClock.now
    if now - download.lastSaved >= .seconds(1) {
      download.lastSaved = now
      try? index.contents.updateProgress(
        id: id, bytes: sent.bytes, total: progress.total, totalIsEstimate: false)
    }
    running[id] = download
  }

  /// A transfer ended. A download stopped on purpose (paused, canceled, waiting for the
  /// network) ends as cancelled and changes nothing here; the others finish, wait for a
  /// retry, wait for space or the network, or are suspended with their error.
  func didEnd(_ id: String, outcome: Result<Transfer.Outcome, Transfer.Error>) {
    guard let download = running.removeValue(forKey: id) else { return }
    defer { pump() }
    switch outcome {
    case .success(let result):
      _ = try? transition(id: id, .finish) { record in
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
    guard let record = try? index.contents.record(id: id),
      record.state == OfflineState.downloading.rawValue
    else { return }
    let failure = OfflineError(.transfer(error), contentID: id)
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
        stored.waitReason = WaitReason.retry(at: at).name
        stored.retryAt = at
        stored.lastError = failure.description
        stored.lastErrorKind = failure.kindName
      }
      hub.send(.waiting(.retry(at: at)), to: id)
      return
    }
    _ = try? transition(id: id, .fail) { stored in
      stored.retryCount = failures
      stored.waitReason = nil
      stored.retryAt = nil
      stored.lastError = failure.description
      stored.lastErrorKind = failure.kindName
    }
    hub.send(.error(failure), to: id)
    hub.send(.suspended, to: id)
  }
}
