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
    case .askForFreshURL(let status):
      guard let refresh = configuration.urlRefresh,
        let record = record(id, for: "asking for a fresh URL"), let url = URL(string: record.url)
      else { return false }
      ask(refresh, id: id, url: url, status: status)
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

// What subscribers hear: every event leaves the manager through these.
extension OfflineManager {
  /// Tells the subscribers of `record` where it stands now (a `changed` event), with the
  /// quick check of its files against `pieces` when it is downloaded (nil: read from the
  /// index; empty: none to check, as for a content whose files were just verified).
  func announce(_ record: ContentRecord, pieces: [PieceRecord]? = nil) {
    tell(.changed(snapshot(of: record, pieces: pieces)), to: record.id)
  }

  /// Reads content `id` and tells its subscribers where it stands; nothing when it cannot
  /// be read.
  func announce(id: String) {
    guard let record = record(id, for: "announcing a change") else { return }
    announce(record)
  }

  /// Tells the subscribers of `record` that its download attempt finished: its local file
  /// or playlist.
  func announceFinished(_ record: ContentRecord) {
    tell(.finished(.success(fileURL(of: record))), to: record.id)
  }

  /// Tells the subscribers of content `id` that its download attempt ended with `error`.
  func announceFailure(_ error: OfflineError, id: String) {
    tell(.finished(.failure(error)), to: id)
  }

  /// Sends `event` to the subscribers of content `id`: the one place events leave the
  /// manager (progress goes through ``tellProgress(_:to:)``).
  func tell(_ event: OfflineContent.Event, to id: String) {
    hub.send(event, to: id)
  }

  /// Sends `progress` to the subscribers of content `id` (coalesced, never backwards);
  /// returns what was sent.
  func tellProgress(_ progress: OfflineProgress, to id: String) -> OfflineProgress {
    hub.sendProgress(progress, to: id)
  }
}
