import OfflineLocks

/// The ``RequestGuard`` once the port is bound (port 0 is known only after binding); until
/// then every request is refused.
final class GuardHolder: Sendable {
  private let value = Locked<RequestGuard?>(nil)

  /// The guard, or nil before the port is known.
  var current: RequestGuard? { value.withLock { $0 } }

  /// Sets the guard.
  func set(_ new: RequestGuard) { value.withLock { $0 = new } }
}
