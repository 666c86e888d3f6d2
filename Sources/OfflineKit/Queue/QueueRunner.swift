/// What the manager holds while its process works the store's queue: the store's runner
/// lock, the loop of ``OfflineManager/start()``, and the nap of
/// ``OfflineManager/runUntilIdle()`` between two turns. A value held by the manager actor.
struct QueueRunner {
  /// The store's runner lock; nil while another process (or none) works the queue.
  var lock: RunnerLock?
  /// The loop that takes a turn every poll interval, nil when it does not run.
  var loop: Task<Void, Never>?
  /// The pause between two turns of ``OfflineManager/runUntilIdle()``.
  var nap = RunnerNap()

  /// Whether this process works the queue.
  var holdsLock: Bool { lock != nil }
}
