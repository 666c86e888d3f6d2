import Foundation

/// Named steps where a test build stops the process (`SIGSTOP`), so that a test can change
/// the disk under it at exactly that step and continue it (`SIGCONT`): a race made
/// deterministic.
///
/// Armed by the environment variable `OFFLINEKIT_STOP_POINT=<name>` in debug builds only
/// (release builds compile every ``reach(_:)`` to nothing); read once, on the first call.
/// An armed point stops the process each time it is reached.
enum StopPoint: String, CaseIterable, Sendable {
  /// A stream's pieces: their folders are made and checked, no piece written yet.
  case piecesAfterFolders = "pieces.afterFolders"
  /// A stream's repair: the packs to mend are known, no segment fetched or written yet.
  case repairBeforeMendingPacks = "repair.beforeMendingPacks"

  /// Stops the process when the environment arms this point; else returns at once.
  @inline(__always)
  static func reach(_ point: StopPoint) {
    #if DEBUG
      if armed == point.rawValue { raise(SIGSTOP) }
    #endif
  }

  #if DEBUG
    /// The armed point's name, read once from the environment.
    private static let armed: String? = ProcessInfo.processInfo.environment[
      "OFFLINEKIT_STOP_POINT"]
  #endif
}
