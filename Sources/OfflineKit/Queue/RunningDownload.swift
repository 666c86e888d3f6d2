import Foundation
import OfflineHTTP
import OfflineStore

/// A download the runner is carrying out.
struct RunningDownload {
  let task: Task<Void, Never>
  let host: String
  /// The URL it started with, to notice one replaced while it runs (`offline set-url`).
  let launchedURL: String
  /// The bytes its progress reports said, from the first to the latest.
  var bytes = AttemptBytes()
  /// When its progress was last written to the index (the manager clock's instant).
  var lastSaved: ContinuousClock.Instant
  /// Whether its file is synced later with others (``GroupCommit``) rather than by its
  /// transfer.
  var syncsLater = false
  /// Whether subscribers were told it waited (network, storage, a retry) before it
  /// started, so they are told when it moves again; a plain start is no news.
  var announcesMoving = false

  /// Whether bytes arrived during this attempt (a retry budget starts over then).
  var progressed: Bool { bytes.progressed }
}

extension RunningDownload {
  /// What the manager does for one progress report of the download, besides telling
  /// subscribers: decided here, as a value; the actor carries it out.
  struct ProgressSteps: Sendable, Equatable {
    /// Clear the wait reason in the index (no longer "starting"), in one UPDATE.
    var recordsMoving = false
    /// Tell subscribers it moves again (after a wait they were told of).
    var announcesMoving = false
    /// Write its bytes to the index, so other processes see them (once a second).
    var savesProgress = false
  }

  /// Takes the report `progress`, which came at `now`, and says what to do for it.
  ///
  /// Its first report means bytes arrive: no longer "starting" (as its launch wrote), and
  /// news only after a wait subscribers were told of. A file whose first report holds all
  /// its bytes arrived within one progress interval: its batch's `downloaded` transaction
  /// clears the reason, and a failure writes its own, so that write would be read by
  /// nobody (a transaction per small file).
  mutating func didProgress(_ progress: OfflineProgress, at now: ContinuousClock.Instant)
    -> ProgressSteps
  {
    var steps = ProgressSteps()
    if bytes.saw(progress.bytes) {
      let arrivedWhole =
        !progress.totalIsEstimate && progress.total.map { progress.bytes >= $0 } == true
      steps.recordsMoving = !(syncsLater && arrivedWhole)
      steps.announcesMoving = announcesMoving
    }
    if now - lastSaved >= .seconds(1) {
      lastSaved = now
      steps.savesProgress = true
    }
    return steps
  }
}
