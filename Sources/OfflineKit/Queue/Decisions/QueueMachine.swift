import Foundation
import OfflineStore

/// The queue's state in this process, and the decisions made on it, as a value.
///
/// The ``OfflineManager`` actor tells it what happened (a download launched, progressed,
/// ended; a stop; another process changed the index; the refresh hook answered; a batch
/// was recorded) and carries out what it answers. It is handed the time, reachability and
/// free space, never reads them, and does no I/O: its decisions are tested as tables, one
/// row per test, with no database, transport or clock (`QueueMachineTests`).
///
/// Its state is spread over this file and its extensions (one per kind of event), so its
/// properties are not private; only its own event methods change them.
struct QueueMachine: Sendable {
  /// How many downloads run at once (``OfflineManager/Configuration/parallelDownloads``).
  let parallelDownloads: Int
  /// The downloads running here, by content id.
  var running: [String: RunningDownload] = [:]
  /// Contents this process is stopping, or whose URL the refresh hook is asked for: none is
  /// started, stopped or cleaned up again meanwhile.
  var stopping: Set<String> = []
  /// The state this process last saw of each content it told subscribers of.
  var knownStates: [String: OfflineState] = [:]
  /// The contents waiting for disk space, and when each is looked at again.
  var storageWaits = StorageWaits()
  /// Fresh URLs asked for in a row without progress, by content id (``URLRefresh``).
  var urlRefreshes: [String: URLRefresh.Streak] = [:]
  /// The index's count of other processes' commits when the runner last followed them.
  var lastExternalChange: Int64 = 0
  /// The stored queue cap (`offline limit`) as the runner last applied it.
  var appliedRateLimitSetting: String?
  /// Whether the manager was closed (``OfflineManager/close()``).
  var closed = false
  /// The queue's rows that may start next, read once for several launches.
  var upcoming = UpcomingRows()

  /// A machine with nothing running, for a queue of `parallelDownloads`.
  init(parallelDownloads: Int) {
    self.parallelDownloads = parallelDownloads
  }

  /// How many more downloads may start now.
  var freeSlots: Int { parallelDownloads - running.count }

  /// The ids of the contents whose download runs here.
  var runningIDs: Set<String> { Set(running.keys) }

  /// The contents whose state another process may change under this one: those running
  /// here and those whose subscribers were told a state.
  var watchedIDs: [String] { Array(runningIDs.union(knownStates.keys)) }

  /// The manager was closed: nothing starts again.
  mutating func didClose() {
    closed = true
  }

  /// The state of content `id` is now `state`, as this process wrote or read it.
  mutating func didSee(_ state: OfflineState, of id: String) {
    knownStates[id] = state
  }

  /// The download of `record` started; it runs as `download`.
  mutating func didLaunch(_ id: String, as download: RunningDownload) {
    running[id] = download
    knownStates[id] = .downloading
  }

  /// The running downloads whose bytes have not come and for which the index does not say
  /// `starting` yet: the runner's turn writes it for all of them in one transaction, so
  /// another process sees them starting rather than queued.
  var unrecordedStarts: [String] {
    running.filter { !$0.value.bytes.reported && $0.value.indexedReason != .starting }.keys.sorted()
  }

  /// The index now says `starting` for `ids` (``unrecordedStarts``).
  mutating func didRecordStarting(_ ids: [String]) {
    for id in ids { running[id]?.indexedReason = .starting }
  }

  /// The download of `id` reported `progress` at `now`: what to do besides telling
  /// subscribers; nil when it does not run here (stopped meanwhile).
  mutating func didProgress(
    _ progress: OfflineProgress, of id: String, at now: ContinuousClock.Instant
  )
    -> RunningDownload.ProgressSteps?
  {
    running[id]?.didProgress(progress, at: now)
  }

  /// Takes the download of `id` out of the running ones to stop it; from here until
  /// ``didStop(_:)`` it counts as stopping, so nothing starts or cleans it meanwhile. Nil
  /// when it does not run here.
  mutating func startStopping(_ id: String) -> RunningDownload? {
    guard let download = running.removeValue(forKey: id) else { return nil }
    stopping.insert(id)
    return download
  }

  /// The download of `id` that ``startStopping(_:)`` took has stopped.
  mutating func didStop(_ id: String) {
    stopping.remove(id)
  }

  /// The next running download to stop as the manager stops, nil when none is left. It
  /// takes one at a time until none is left: a download that ended while another was being
  /// stopped used to start the next one, which nobody then stopped.
  var nextToStop: String? { running.keys.min() }

  /// The running downloads whose host `isReachable` says is unreachable: they stop and wait
  /// for the network instead of for a stall timeout (their retry budget untouched).
  func unreachable(isReachable: (String) -> Bool) -> [String] {
    running.filter { !isReachable($0.value.host) }.keys.sorted()
  }

  /// The running downloads whose content's URL is no longer the one they started with
  /// (`current`: each running content's URL in the index now; `offline set-url`).
  func replacedURLs(current: [String: String]) -> [String] {
    running.compactMap { id, download in
      guard let url = current[id], url != download.launchedURL else { return nil }
      return id
    }.sorted()
  }
}
