import OfflineStore

/// What the manager does for a call of the API on a content, as a value: the record's
/// edits made in the transition's transaction, and the steps carried out after it. The
/// state change itself is ``OfflineStateMachine``'s (its transition tells subscribers);
/// this decides everything around it.
///
/// | call | edits | after |
/// |---|---|---|
/// | `download` | the config (priority, checksum, options), bytes 0, queued, retries and error cleared | queued manifest, progress reset, pump |
/// | `resume` | queued, retries and error cleared | pump |
/// | `suspend` | no wait reason | its download stopped, the suspended manifest (here, or by the runner) |
/// | `cancel` | cleanup pending, no wait reason, error cleared | its download stopped, files deleted by the runner (the attempt's end, `canceled`, then) |
/// | `delete` | cleanup pending, no wait reason | files deleted by the runner |
struct CallDecision: Sendable, Equatable {
  /// The record's changes, in the transaction that changes its state.
  var edits: [RecordEdit]
  /// Whether the content moves to the end of its priority's queue.
  var movesToEnd: Bool
  /// Steps after the transition.
  var steps: [ManagerStep]

  /// The decision for `action`.
  ///
  /// - Parameters:
  ///   - configuration: the download's configuration (`download` only).
  ///   - wasRunningHere: whether its download runs in this process.
  init(
    _ action: OfflineAction, configuration: DownloadConfiguration = DownloadConfiguration(),
    wasRunningHere: Bool
  ) {
    let goesOn: [RecordEdit] = [.waitReason(.queued), .retryCount(0), .lastError(nil)]
    movesToEnd = action == .download
    switch action {
    case .download:
      edits =
        [
          .priority(configuration.priority), .expectedSHA256(configuration.expectedSHA256),
          .options(configuration.storedOptions), .bytes(0),
        ] + goesOn
      steps = [.recordQueued, .resetProgress, .pump]
    case .resume:
      edits = goesOn
      steps = [.pump]
    case .suspend:
      edits = [.waitReason(nil)]
      // A running transfer's end records the suspended manifest; so does the runner's,
      // when another process runs the queue (its part may still grow).
      steps =
        [.stopRunning]
        + (wasRunningHere ? [] : [.recordSuspendedUnlessAnotherProcessRuns])
    case .cancel:
      edits = [.pendingCleanup(true), .waitReason(nil), .lastError(nil)]
      steps = [.reach(.cancelAfterCanceling), .stopRunning, .finishCleanupIfRunner]
    case .delete:
      edits = [.pendingCleanup(true), .waitReason(nil)]
      steps = [.reach(.deleteAfterIntent), .finishCleanupIfRunner]
    }
  }
}
