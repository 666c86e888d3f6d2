import Foundation
import OfflineStore

extension OfflineManager {
  /// Applies a call of the API to content `id`: checks it against the state machine and
  /// changes the state in one transaction (so a call from another process cannot slip in
  /// between), then carries out what the new state asks for.
  func perform(_ action: OfflineAction, id: String, config: DownloadConfig = DownloadConfig())
    async throws(OfflineError)
  {
    if action == .download,
      try indexStep({ try index.contents.record(id: id) })?.pendingCleanup == true
    {
      try finishCleanup(id)  // a delete cut short: its files go before new ones come
    }
    let wasRunningHere = running[id] != nil
    try prepareManifest(for: action, id: id)
    let before = try transition(id: id, action, movingToEnd: action == .download) { record in
      switch action {
      case .download:
        record.priority = config.priority
        record.expectedSHA256 = config.expectedSHA256
        record.options = config.encodedOptions
        record.bytes = 0
        fallthrough
      case .resume:
        record.waitReason = WaitReason.queued.name
        record.retryCount = 0
        record.retryAt = nil
        record.lastError = nil
        record.lastErrorKind = nil
      case .cancel, .delete:
        record.pendingCleanup = true
        record.waitReason = nil
      default:
        record.waitReason = nil
      }
    }
    switch action {
    case .suspend:
      await stopRunning(id)
      // A running transfer's end records the suspended manifest (``didEnd(_:outcome:)``);
      // so does the runner's, when another process runs the queue (its part may still grow).
      if !wasRunningHere { recordSuspendedUnlessAnotherProcessRuns(id) }
      hub.send(.suspended, to: id)
    case .resume:
      hub.send(.resumed, to: id)
      pump()
    case .download:
      if let record = try? index.contents.record(id: id) { files.recordQueued([record]) }
      hub.resetProgress(of: id)
      pump()
    case .cancel:
      CrashPoint.reach(.cancelAfterCanceling)
      await stopRunning(id)
      try finishCleanupIfRunner(id, canceled: true)
    case .delete:
      CrashPoint.reach(.deleteAfterIntent)
      try finishCleanupIfRunner(id, canceled: false)
    default:
      _ = before
    }
  }

  /// Moves content `id` along the state machine in one transaction, letting `change` adjust
  /// the record, and tells subscribers. Returns the state before.
  @discardableResult
  func transition(
    id: String, _ action: OfflineAction, movingToEnd: Bool = false,
    change: (inout ContentRecord) -> Void = { _ in }
  ) throws(OfflineError) -> OfflineState {
    var before = OfflineState.notDownloaded
    var after = OfflineState.notDownloaded
    let updated: ContentRecord?
    do {
      updated = try index.contents.update(id: id, movingToEnd: movingToEnd) { record in
        before = OfflineState(rawValue: record.state) ?? .notDownloaded
        after = try OfflineStateMachine.state(after: action, from: before)
        record.state = after.rawValue
        change(&record)
      }
    } catch let error as OfflineError {
      var located = error
      located.contentID = id
      throw located
    } catch let error as StoreError {
      throw OfflineError(.index(error), contentID: id)
    } catch {
      throw OfflineError(.unknownContent(id), contentID: id)
    }
    guard updated != nil else { throw OfflineError(.unknownContent(id), contentID: id) }
    knownStates[id] = after
    hub.send(.stateChanged(after), to: id)
    return before
  }

  /// Deletes the files a cancel or a delete left behind and completes the change, when this
  /// process may: it is the runner, or no process is. Otherwise the runner does it within
  /// its poll interval.
  func finishCleanupIfRunner(_ id: String, canceled: Bool) throws(OfflineError) {
    if runnerLock != nil {
      try finishCleanup(id)
      return
    }
    guard let lock = RunnerLock(directory: directory) else { return }
    defer { _ = lock }
    try finishCleanup(id)
  }

  /// Deletes the content's files, then records the change done (cleanup intent cleared,
  /// `canceling` → `notDownloaded`).
  func finishCleanup(_ id: String) throws(OfflineError) {
    guard let record = try indexStep({ try index.contents.record(id: id) }) else { return }
    try files.delete(record)
    CrashPoint.reach(.cleanupAfterDeletingFiles)
    hub.resetProgress(of: id)
    if record.state == OfflineState.canceling.rawValue {
      try transition(id: id, .finishCancel) { record in
        record.pendingCleanup = false
        record.bytes = 0
      }
      hub.send(.canceled, to: id)
    } else {
      try indexStep {
        try index.contents.update(id: id) { record in
          record.pendingCleanup = false
          record.bytes = 0
          record.state = OfflineState.notDownloaded.rawValue  // its files are gone
        }
      }
    }
  }
}
