/// The pause of ``OfflineManager/runUntilIdle()`` between two turns of the runner: the poll
/// interval, cut short when the last running download ends. Before, a queue that was done
/// returned only at the next turn, on average half a poll interval (125 ms) after its last
/// file: a third of curl's time for a thousand small files.
///
/// A value held by the manager actor; at most one nap at a time.
struct RunnerNap {
  private var waiter: CheckedContinuation<Void, Never>?
  private var timer: Task<Void, Never>?
  /// Which nap is the current one; a timer or a cancellation of an earlier one ends nothing.
  private(set) var token = 0

  /// Starts the nap that `waiter` waits in and `timer` ends.
  mutating func begin(_ waiter: CheckedContinuation<Void, Never>, timer: Task<Void, Never>) {
    self.waiter = waiter
    self.timer = timer
  }

  /// The token for the next nap.
  mutating func nextToken() -> Int {
    token &+= 1
    return token
  }

  /// Ends the nap `token` (nil: whichever is current), if it is still going: its timer is
  /// cancelled and the one waiting is returned, to be resumed once.
  mutating func end(_ token: Int? = nil) -> CheckedContinuation<Void, Never>? {
    guard token == nil || token == self.token, let waiter else { return nil }
    self.waiter = nil
    timer?.cancel()
    timer = nil
    return waiter
  }
}
