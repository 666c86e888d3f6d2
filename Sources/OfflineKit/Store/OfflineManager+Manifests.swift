import Foundation
import OfflineStore

extension OfflineManager {
  /// The manifest change that must come before the index records `action` on content `id`,
  /// so that a crash between the two never leaves a manifest claiming more than is true: a
  /// cancel or a delete removes the manifests (nothing cancelled or deleted may come back
  /// from them); a resume drops the journal entries of the parts it will write again.
  ///
  /// Only when the state machine allows the action; when the index then refuses it after
  /// all (another process changed the state meanwhile), the manifest claims less than the
  /// index, which is safe.
  func prepareManifest(for action: OfflineAction, id: String) throws(OfflineError) {
    guard [.cancel, .delete, .resume].contains(action),
      let record = try indexStep({ try index.contents.record(id: id) }),
      (try? OfflineStateMachine.state(after: action, from: record.offlineState)) != nil
    else { return }
    if action == .resume {
      files.recordResuming(record)
    } else {
      files.forgetManifests(of: record)
    }
  }

  /// Writes the manifest of content `id` when it is suspended and no transfer of it runs
  /// here, with the journal entries of its parts.
  func recordSuspended(_ id: String) {
    guard machine.running[id] == nil, let record = try? index.contents.record(id: id),
      record.state == .suspended, !record.pendingCleanup
    else { return }
    files.recordSuspended(record)
  }

  /// ``recordSuspended(_:)`` when no other process runs the queue: a runner elsewhere may
  /// still be writing the part until it notices, and records the manifest itself when its
  /// transfer ends.
  func recordSuspendedUnlessAnotherProcessRuns(_ id: String) {
    if runner.holdsLock {
      recordSuspended(id)
    } else if let lock = RunnerLock(directory: directory) {
      defer { _ = lock }
      recordSuspended(id)
    }
  }
}
