import Foundation
import OfflineSignals

/// Turns SIGINT and SIGTERM into cancellation of one task, remembering which signal came,
/// so the command can stop cleanly (partial data and journal kept) and exit 130 or 143.
///
/// Made before the task starts, so that a signal at any moment of the run is seen (one that
/// comes before ``cancels(_:)`` cancels the task as soon as it is given).
final class SignalTrap: Sendable {
  private let signals: ProcessSignals

  /// Installs the process's handlers (``ProcessSignals/shared``) if they are not yet.
  init(signals: ProcessSignals = .shared) {
    self.signals = signals
  }

  /// Cancels `task` on the first SIGINT or SIGTERM, or at once if one already came.
  func cancels<Success: Sendable>(_ task: Task<Success, Never>) {
    signals.listen { _ in task.cancel() }
  }

  /// The exit code for the signal that stopped the command, if one did.
  var exitCode: Int32? {
    switch signals.first {
    case SIGINT: ExitCode.interrupted
    case SIGTERM: ExitCode.terminated
    default: nil
    }
  }
}
