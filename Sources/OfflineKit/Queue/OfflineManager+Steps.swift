import Foundation
import OfflineStore

extension OfflineManager {
  /// Carries out `steps` for content `id`, in order, as ``CallDecision`` and
  /// ``EndDecision`` decided them. A `move` the state table refuses (the state changed
  /// meanwhile, by a call or another process) ends them there.
  ///
  /// - Throws: ``OfflineError`` from a cleanup this process carries out.
  func carryOut(_ steps: [ManagerStep], id: String) async throws(OfflineError) {
    for step in steps {
      if case .stopRunning = step {
        await stopRunning(id)
      } else if try !carryOut(step, id: id) {
        return
      }
    }
  }

  /// ``carryOut(_:id:)`` without leaving the actor, for steps that never wait: every
  /// ``EndDecision``'s. Nothing else runs on the actor between them.
  func carryOutNow(_ steps: [ManagerStep], id: String) {
    for step in steps {
      guard
        logging(
          "the step \(step)", id: id,
          { () throws(OfflineError) in
            try carryOut(step, id: id)
          }) == true
      else { return }
    }
  }

  /// One step; false when the steps after it must not run.
  private func carryOut(_ step: ManagerStep, id: String) throws(OfflineError) -> Bool {
    switch step {
    case .move(let event, let edits):
      return transition(id: id, event) { edits.apply(to: &$0) }
    case .update(let edits):
      _ = logging("recording \(edits)", id: id) {
        try index.contents.update(id: id) { edits.apply(to: &$0) }
      }
    case .wait(let reason):
      if let record = record(id, for: "waiting") { setWaitReason(reason, for: record) }
    case .send(.change):
      announce(id: id)
    case .send(.finished):
      guard let record = record(id, for: "announcing its finish") else { return false }
      announceFinished(record)
    case .send(.failed(let error)):
      announceFailure(error, id: id)
    case .send(.canceled):
      announceFailure(OfflineError(.canceled, contentID: id), id: id)
    case .stopRunning:
      Task { await self.stopRunning(id) }  // only ``carryOut(_:id:)`` waits for it
    case .deleteFiles:
      sessions.forget(id: id)  // its cookies go with its files
      // As far as it can: what is left goes with the content's next cleanup.
      if let record = record(id, for: "deleting its files") {
        _ = logging("deleting its files (the next cleanup tries again)", id: id) {
          try files.delete(record)
        }
      }
    case .forgetManifests:
      if let record = record(id, for: "forgetting its manifests") {
        files.forgetManifests(of: record)
      }
    case .resetProgress:
      hub.resetProgress(of: id)
    case .recordQueued:
      if let record = record(id, for: "recording it queued") { files.recordQueued([record]) }
    case .recordSuspended:
      recordSuspended(id)
    case .recordSuspendedUnlessAnotherProcessRuns:
      recordSuspendedUnlessAnotherProcessRuns(id)
    case .finishCleanupIfRunner:
      try finishCleanupIfRunner(id)
    case .pump:
      pump()
    case .reach(let point):
      CrashPoint.reach(point)
    }
    return true
  }
}

extension OfflineManager {
  /// The record of content `id` for a step (`purpose`, a phrase for the log); nil, and
  /// logged, when the index cannot give it; nil when the content is gone.
  func record(_ id: String, for purpose: String) -> ContentRecord? {
    logging("reading the record for \(purpose)", id: id) {
      try index.contents.record(id: id)
    } ?? nil
  }
}
