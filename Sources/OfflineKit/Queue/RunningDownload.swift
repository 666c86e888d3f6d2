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
  /// The wait reason the index holds for it, as far as the runner wrote or read it: a row
  /// launched from the queue still says `queued` until the runner's next turn writes
  /// `starting` for those whose bytes have not come (``QueueMachine/unrecordedStarts``), or
  /// its batch records it downloaded. A small file that arrives within one turn is never
  /// marked at all: that was a commit per file.
  var indexedReason: ContentWaitReason?

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
  /// Its first report means bytes arrive: the index's reason (`queued`, `starting`, a wait
  /// before) is cleared, and that is news only after a wait subscribers were told of. A file
  /// whose first report holds all its bytes arrived within one progress interval: its
  /// batch's `downloaded` transaction clears the reason, and a failure writes its own, so
  /// that write would be read by nobody (a transaction per small file).
  mutating func didProgress(_ progress: OfflineProgress, at now: ContinuousClock.Instant)
    -> ProgressSteps
  {
    var steps = ProgressSteps()
    if bytes.saw(progress.bytes) {
      let arrivedWhole =
        !progress.totalIsEstimate && progress.total.map { progress.bytes >= $0 } == true
      steps.recordsMoving = indexedReason != nil && !(syncsLater && arrivedWhole)
      if steps.recordsMoving { indexedReason = nil }
      steps.announcesMoving = announcesMoving
    }
    if now - lastSaved >= .seconds(1) {
      lastSaved = now
      steps.savesProgress = true
    }
    return steps
  }
}

extension RunningDownload {
  /// The wait reason subscribers see for it when the index holds `indexed`: `starting`
  /// until its first bytes come, then none (it runs), whatever of that the runner has not
  /// written yet; a reason the index holds otherwise stands.
  func waitReason(indexed: ContentWaitReason?) -> ContentWaitReason? {
    guard indexed == nil || indexed == .queued || indexed == .starting else { return indexed }
    return bytes.reported ? nil : .starting
  }
}
