import Foundation

/// Named steps of the state changes where a test build can make the process die on the
/// spot, as a SIGKILL or a power cut would, to prove that the next command recovers.
///
/// Armed by the environment variable `OFFLINEKIT_CRASH_POINT=<name>` in debug builds only
/// (release builds compile every ``reach(_:)`` to nothing). The variable is read once, on
/// the first call; an armed point calls `_exit(137)`: no `defer`, no `deinit`, no flush, no
/// journal commit after it. See docs/Reliability.md for the list and the promised recovery.
enum CrashPoint: String, CaseIterable, Sendable {
  /// `cancel`: the content is `canceling`, no file deleted yet.
  case cancelAfterCanceling = "cancel.afterCanceling"
  /// `delete` (`rm`): the cleanup intent is recorded, no file deleted yet.
  case deleteAfterIntent = "delete.afterIntent"
  /// cancel or delete: the files are gone, `notDownloaded` not recorded yet.
  case cleanupAfterDeletingFiles = "cleanup.afterDeletingFiles"
  /// A download: its transfer finished (the file renamed into place and recorded complete
  /// in the journal), `downloaded` not recorded yet.
  case finishBeforeDownloaded = "finish.beforeDownloaded"
  /// Recovery at start-up: a `canceling` content's files are deleted, `notDownloaded` not
  /// recorded yet.
  case recoveryAfterDeletingFiles = "recovery.afterDeletingFiles"
  /// A transfer: the journal says `finishing`, the part not yet renamed into place.
  case transferAfterFinishing = "transfer.afterFinishing"
  /// A transfer: the file renamed into place, the journal not yet `complete`.
  case transferAfterRename = "transfer.afterRename"
  /// A piece of a stream: its bytes written into its pack, its record not yet in the
  /// journal.
  case transferAfterPackWrite = "transfer.afterPackWrite"
  /// A repair: every damaged chunk of a file is staged and checked, none written in yet.
  case repairAfterStaging = "repair.afterStaging"
  /// A repair: one staged chunk is written into the file and fsynced, its part not removed.
  case repairAfterChunkWrite = "repair.afterChunkWrite"

  /// Dies with exit status 137 when the environment arms this point; else returns at once.
  @inline(__always)
  static func reach(_ point: CrashPoint) {
    #if DEBUG
      if armed == point.rawValue { _exit(137) }
    #endif
  }

  #if DEBUG
    /// The armed point's name, read once from the environment.
    private static let armed: String? = ProcessInfo.processInfo.environment[
      "OFFLINEKIT_CRASH_POINT"]
  #endif
}
