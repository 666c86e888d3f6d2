import Foundation

/// The queue's group commit: files whose transfers finished without a per-file fsync wait
/// here to be recorded `downloaded` together. One `syncfs` makes a batch's bytes and renames
/// durable, then one transaction records them (see ``OfflineManager/flushFinished()``).
/// Nothing in it is `downloaded` yet: a crash before the commit leaves them `downloading`,
/// and their next run finds each file complete in the journal (same boot) or downloads it
/// again (after a power cut).
///
/// A batch's syncs run off the manager's actor: a `syncfs` took 8 to 30 ms here, and while
/// the actor waited in it no download could start or end (a sixth of the wall time of a
/// thousand small files). The contents it holds, waiting or syncing, stay out of the
/// queue's picks until their batch is recorded. A value held by the manager actor; it does
/// no I/O itself.
struct GroupCommit {
  /// A finished transfer waiting for the sync.
  struct Entry {
    /// The content.
    let id: String
    /// What its transfer reported.
    let outcome: Transfer.Outcome
  }

  /// Finished files at which the batch is flushed at once, whatever else still runs.
  static let largest = 64

  /// The `complete` journal records of the queue's files, written with the batch that
  /// records them `downloaded` instead of a commit each.
  let completions: CompletionBatch
  /// The response records of the queue's files, each written before its file's rename in
  /// one transaction with those of the files finishing at about the same moment.
  let responses: ResponseRecordBatch
  private var waiting: [Entry] = []
  /// The contents of every batch whose sync is under way.
  private var syncingIDs: Set<String> = []
  /// The contents waiting or syncing (``ids``), kept as they come and go rather than made
  /// anew for each look: the runner looks at every launch.
  private var held: Set<String> = []
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var members: [Int: [String]] = [:]
  private var nextKey = 0

  /// A group commit whose files' `complete` records go to `completions` and whose response
  /// records go to `responses`.
  init(completions: CompletionBatch, responses: ResponseRecordBatch) {
    self.completions = completions
    self.responses = responses
  }

  /// Adds the transfer of `id` that finished with `outcome`.
  mutating func add(_ id: String, _ outcome: Transfer.Outcome) {
    waiting.append(Entry(id: id, outcome: outcome))
    held.insert(id)
  }

  /// Whether the waiting batch should be flushed now rather than at the next turn of the
  /// runner: it is full, or nothing else is running that could join it.
  func isDue(running: Int) -> Bool {
    !waiting.isEmpty && (waiting.count >= Self.largest || running == 0)
  }

  /// How many batches it has started so far.
  var batchesStarted: Int { nextKey }

  /// The contents it holds, waiting or syncing: not to be picked again meanwhile.
  var ids: Set<String> { held }

  /// Whether it holds `id`, waiting or syncing.
  func holds(_ id: String) -> Bool {
    held.contains(id)
  }

  /// Takes the waiting entries, oldest first, into a batch whose sync `start` begins (with
  /// the batch's key, for ``finish(_:)``); nothing when none waits.
  mutating func startBatch(_ start: ([Entry], Int) -> Task<Void, Never>) {
    guard !waiting.isEmpty else { return }
    let entries = waiting
    waiting = []
    nextKey += 1
    let key = nextKey
    let batch = entries.map(\.id)
    syncingIDs.formUnion(batch)
    members[key] = batch
    tasks[key] = start(entries, key)
  }

  /// The batch `key` is recorded (or failed): its contents may be picked again.
  mutating func finish(_ key: Int) {
    tasks[key] = nil
    for id in members.removeValue(forKey: key) ?? [] {
      syncingIDs.remove(id)
      if !waiting.contains(where: { $0.id == id }) { held.remove(id) }
    }
  }

  /// Whether no batch is under way.
  var isSettled: Bool { tasks.isEmpty }

  /// The tasks of the batches under way, to wait for.
  var pending: [Task<Void, Never>] { Array(tasks.values) }
}
