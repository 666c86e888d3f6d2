import Foundation
import OfflineStore

extension QueueMachine {
  /// What the runner does for one of the queue's rows that may start.
  enum Launch: Sendable, Equatable {
    /// Start its download from `url`, on `host`.
    case start(ContentRecord, url: URL, host: String)
    /// It waits (for the network, for space): the reason is recorded and told.
    case wait(WaitReason, ContentRecord)
    /// It cannot fit even on the empty file system: `needed` more bytes than `capacity`.
    case cannotStart(ContentRecord, needed: Int64, capacity: Int64)
  }

  /// What the runner knows of the world for launches, handed in: asked only for the rows
  /// that need it, in queue order.
  struct Surroundings {
    /// Whether `host` is reachable now.
    var isReachable: (String) -> Bool
    /// The space of the file system that holds `record`'s folder (nil when it cannot be
    /// read), and the store's quota with its usage (nil for none).
    var space: (ContentRecord) -> (StorageSpace?, SpaceDecision.Quota?)
    /// The bytes to keep free (``OfflineManager/Configuration/minimumFreeSpace``).
    var margin: Int64
  }

  /// What to do for `candidates`, the queue's rows that may start in queue order, at `now`:
  /// as many start as there are free slots, skipping those running, stopping or in a batch
  /// being recorded (`committing`); one whose host is unreachable waits for the network,
  /// one without the space waits for it (looked at calmly, ``StorageWaits``), one that can
  /// never fit ends. `aheadOfTheQueue`: each may start whatever runs (a player waits for
  /// it), beside the parallel limit.
  mutating func launches(
    from candidates: [ContentRecord], committing: Set<String>, at now: ContinuousClock.Instant,
    in world: Surroundings, aheadOfTheQueue: Bool = false
  ) -> [Launch] {
    let slots = aheadOfTheQueue ? candidates.count : freeSlots
    guard slots > 0 else { return [] }
    var waits = storageWaits
    defer { storageWaits = waits }
    waits.keepOnly(Set(candidates.map(\.id)).union(running.keys))
    var launches: [Launch] = []
    for record in candidates
    where running[record.id] == nil && !stopping.contains(record.id)
      && !committing.contains(record.id)
    {
      guard launches.count(where: \.starts) < slots else { break }
      guard let url = URL(string: record.url), let host = url.host() else { continue }
      guard world.isReachable(host) else {
        launches.append(.wait(.network, record))
        continue
      }
      switch Self.space(for: record, waits: &waits, at: now, in: world) {
      case .fits:
        waits.launch(record.id, at: now)
        upcoming.remove(record.id)
        launches.append(.start(record, url: url, host: host))
      case .wait:
        launches.append(.wait(.storage, record))
      case .notYetDue:
        break
      case .never(let needed, let capacity):
        upcoming.remove(record.id)
        launches.append(.cannotStart(record, needed: needed, capacity: capacity))
      }
    }
    return launches
  }

  /// ``SpaceDecision`` for `record`: a content waiting for space and not due to be looked at
  /// again costs no look at the disk.
  private static func space(
    for record: ContentRecord, waits: inout StorageWaits, at now: ContinuousClock.Instant,
    in world: Surroundings
  ) -> SpaceDecision {
    let waiting = record.waitReason == .storage
    if waiting, !waits.isDue(record.id, at: now) { return .notYetDue }
    let (space, quota) = world.space(record)
    return SpaceDecision.decide(
      .init(id: record.id, waiting: waiting, total: record.total, bytes: record.bytes),
      space: space, margin: world.margin, quota: quota, waits: &waits, at: now)
  }
}

extension QueueMachine.Launch {
  /// Whether it starts a download.
  var starts: Bool {
    if case .start = self { return true }
    return false
  }
}
