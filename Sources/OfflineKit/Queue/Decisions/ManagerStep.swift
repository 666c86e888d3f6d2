/// One thing the manager does for a content, decided as a value by ``CallDecision`` or
/// ``EndDecision`` and carried out, in order, by the actor (``OfflineManager/carryOut(_:id:)``).
/// No step decides anything: each is one call on the index, the files or the subscribers.
enum ManagerStep: Sendable, Equatable {
  /// Moves the content along the engine's rows of the state table, with `edits`, in one
  /// transaction, and tells subscribers (`changed`); the steps after it are skipped when the table has no such row (the state
  /// changed meanwhile).
  case move(OfflineEngineEvent, [RecordEdit])
  /// Changes the record without changing its state.
  case update([RecordEdit])
  /// Records why it is not moving and tells subscribers (`changed`).
  case wait(WaitReason)
  /// Tells subscribers.
  case send(Notice)
  /// Asks the ``URLRefresh`` hook for a fresh URL for its URL, refused with `status`;
  /// it is not started again meanwhile (a task of its own answers).
  case askForFreshURL(Int)
  /// Stops its download if it runs here, and waits until it has stopped.
  case stopRunning
  /// Deletes its folder and journal entries.
  case deleteFiles
  /// Removes its manifests, so nothing deleted or discarded can come back from them.
  case forgetManifests
  /// Forgets the progress last sent, so the next download's progress starts from zero.
  case resetProgress
  /// Writes the manifest of a queued content.
  case recordQueued
  /// Writes the manifest of a suspended content whose download has stopped.
  case recordSuspended
  /// ``recordSuspended`` unless another process runs the queue (it records it itself).
  case recordSuspendedUnlessAnotherProcessRuns
  /// Deletes the files a cancel or a delete left and completes the change, when this
  /// process may (it is the runner, or no process is).
  case finishCleanupIfRunner
  /// Starts what may start.
  case pump
  /// A crash point of the fault tests.
  case reach(CrashPoint)

  /// What subscribers are told, besides the `changed` every `move` sends.
  enum Notice: Sendable, Equatable {
    /// Where the content stands now, after an `update` or a `wait`.
    case change
    /// The attempt finished: the file is in place.
    case finished
    /// The attempt ended with the decision's error.
    case failed(OfflineError)
    /// The attempt ended in a cancel.
    case canceled

    static func == (lhs: Notice, rhs: Notice) -> Bool {
      switch (lhs, rhs) {
      case (.change, .change), (.finished, .finished), (.canceled, .canceled): true
      case (.failed(let a), .failed(let b)): a == b
      default: false
      }
    }
  }
}
