/// The batches of finished files whose syncs are under way, off the manager's actor: a
/// `syncfs` took 8 to 30 ms here, and while the actor waited in it no download could start
/// or end (a sixth of the wall time of a thousand small files).
///
/// Their contents stay out of the queue's picks until their batch is recorded. A value held
/// by the manager actor.
struct SyncingBatches {
  /// The contents of every batch under way.
  private(set) var ids: Set<String> = []
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var members: [Int: [String]] = [:]
  private var nextKey = 0

  /// Whether no batch is under way.
  var isEmpty: Bool { tasks.isEmpty }

  /// Starts the batch of `entries` with the task `make` returns for its key.
  mutating func start(
    _ entries: [FinishedBatch.Entry], _ make: (Int) -> Task<Void, Never>
  ) {
    nextKey += 1
    let key = nextKey
    let batch = entries.map(\.id)
    ids.formUnion(batch)
    members[key] = batch
    tasks[key] = make(key)
  }

  /// The batch `key` is recorded (or failed): its contents may be picked again.
  mutating func finish(_ key: Int) {
    tasks[key] = nil
    for id in members.removeValue(forKey: key) ?? [] { ids.remove(id) }
  }

  /// The tasks of the batches under way, to wait for.
  var pending: [Task<Void, Never>] { Array(tasks.values) }
}
