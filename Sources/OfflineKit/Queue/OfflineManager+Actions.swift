import Foundation
import OfflineStore

extension OfflineManager {
  /// Applies a call of the API to content `id`: checks it against the state machine and
  /// changes the state in one transaction (so a call from another process cannot slip in
  /// between), then carries out the steps ``CallDecision`` decided.
  func perform(
    _ action: OfflineAction, id: String,
    configuration: DownloadConfiguration = DownloadConfiguration()
  )
    async throws(OfflineError)
  {
    await stopPlaybackRun(id)  // a player's fetches of a paused stream end before any call
    if action == .download,
      try indexStep({ try index.contents.record(id: id) })?.pendingCleanup == true
    {
      try finishCleanup(id)  // a delete cut short: its files go before new ones come
    }
    let decision = CallDecision(
      action, configuration: configuration, wasRunningHere: machine.running[id] != nil)
    try prepareManifest(for: action, id: id)
    do {
      try transition(id: id, action, movingToEnd: decision.movesToEnd) { record in
        decision.edits.apply(to: &record)
      }
    } catch  where action == .delete && error.isIndexFull {
      try deleteFilesToMakeRoom(id: id, error)
      try transition(id: id, action, movingToEnd: decision.movesToEnd) { record in
        decision.edits.apply(to: &record)
      }
    }
    try await carryOut(decision.steps, id: id)
    if action == .download || action == .resume { startWhenAsked() }
  }

  /// A delete the index could not record, its disk being full: the downloaded content's
  /// files go first, making the room the record needs (the index and the content share a
  /// disk in a store). A crash before the record leaves a downloaded content whose files
  /// are missing: the quick check shows it damaged, and a delete goes through then.
  private func deleteFilesToMakeRoom(id: String, _ full: OfflineError) throws(OfflineError) {
    guard let record = try indexStep({ try index.contents.record(id: id) }),
      record.state == .downloaded
    else { throw full }
    try files.delete(record)
  }

  /// Moves content `id` along the state machine for a call, in one transaction, letting
  /// `change` adjust the record, and tells subscribers.
  ///
  /// - Throws: ``OfflineError`` `invalidTransition` when the table has no row for the call
  ///   in the content's state (nothing changes), `unknownContent`, or `index`.
  func transition(
    id: String, _ action: OfflineAction, movingToEnd: Bool = false,
    change: (inout ContentRecord) -> Void = { _ in }
  ) throws(OfflineError) {
    try move(id: id, movingToEnd: movingToEnd, change: change) { before throws(OfflineError) in
      try OfflineStateMachine.state(after: action, from: before)
    }
  }

  /// Moves content `id` along the state machine for what the engine reports, in one
  /// transaction, letting `change` adjust the record, and tells subscribers. Returns false,
  /// changing nothing, when the table has no row for it (the state changed meanwhile) or
  /// the index cannot be written.
  @discardableResult
  func transition(
    id: String, _ event: OfflineEngineEvent, change: (inout ContentRecord) -> Void = { _ in }
  ) -> Bool {
    do {
      try move(id: id, movingToEnd: false, change: change) { before throws(OfflineError) in
        guard let after = OfflineStateMachine.state(after: event, from: before) else {
          throw OfflineError(.unknownContent(id), contentID: id)  // not applied
        }
        return after
      }
      return true
    } catch {
      return false
    }
  }

  private func move(
    id: String, movingToEnd: Bool, change: (inout ContentRecord) -> Void,
    next: (OfflineState) throws(OfflineError) -> OfflineState
  ) throws(OfflineError) {
    var after = OfflineState.notDownloaded
    let updated: ContentRecord?
    do {
      updated = try index.contents.update(id: id, movingToEnd: movingToEnd) { record in
        after = try next(record.offlineState)
        record.state = after.stored
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
    guard let updated else { throw OfflineError(.unknownContent(id), contentID: id) }
    machine.didSee(after, of: id)
    // Only a finish moves to downloaded, its files just verified: nothing to check.
    announce(updated, pieces: [])
  }

  /// Deletes the files a cancel or a delete left behind and completes the change, when this
  /// process may: it is the runner, or no process is. Otherwise the runner does it within
  /// its poll interval.
  func finishCleanupIfRunner(_ id: String) throws(OfflineError) {
    if runner.holdsLock {
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
    carryOutNow(CleanupDecision.afterDeletingFiles(state: record.offlineState), id: id)
  }
}

extension OfflineError {
  /// Whether the index could not be written because its disk is full.
  var isIndexFull: Bool {
    if case .index(let error) = kind { return error.kind == .full }
    return false
  }
}
