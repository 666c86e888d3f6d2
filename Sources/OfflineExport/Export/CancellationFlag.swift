import Synchronization

/// Set when the export's task is cancelled; read by the export between packets and by libav's
/// interrupt callback while it waits on I/O.
final class CancellationFlag: Sendable {
  private let raised = Atomic(false)

  /// Whether the export should stop.
  var isRaised: Bool { raised.load(ordering: .relaxed) }

  /// Asks the export to stop.
  func raise() { raised.store(true, ordering: .relaxed) }
}
