import Foundation
import OfflineLocks

/// The fresh entries a cache has served, readable from any task without a hop onto the
/// ``FileCache`` actor: the hit path is a lock, a dictionary lookup and a file read.
///
/// The actor fills it whenever it serves or stores an entry and empties it before it
/// deletes a file; a reader that lost that race finds the file gone or of another length
/// and takes the slow path, where it is a miss. Last uses noted here are handed to the
/// index in batches.
final class HitTable: Sendable {
  /// One fresh entry.
  struct Hot: Sendable {
    let path: String
    let size: Int64
    let staleAt: Date
  }

  private struct State {
    var entries: [String: Hot] = [:]
    var uses: [String: Date] = [:]
    var lastFlush = ContinuousClock.now
  }

  private let state = Locked(State())
  private let limit: Int

  init(limit: Int) {
    self.limit = limit
  }

  /// The fresh entry for `hash`, noting its use; nil when unknown or stale.
  func hit(_ hash: String, now: Date = Date()) -> Hot? {
    state.withLock { state in
      guard let hot = state.entries[hash], now < hot.staleAt else { return nil }
      state.uses[hash] = now
      return hot
    }
  }

  /// Remembers (or, with nil, forgets) the entry for `hash`.
  func set(_ hash: String, _ hot: Hot?) {
    state.withLock { state in
      if hot != nil, state.entries.count >= limit { state.entries.removeAll(keepingCapacity: true) }
      state.entries[hash] = hot
      if hot == nil { state.uses[hash] = nil }
    }
  }

  /// Forgets every entry.
  func removeAll() {
    state.withLock { $0.entries.removeAll() }
  }

  /// The uses noted so far, taken out, when there are `batch` of them or `interval` has
  /// passed since the last batch (or always, with `force`); else nil.
  func takeUses(batch: Int, interval: Duration, force: Bool = false) -> [String: Date]? {
    state.withLock { state in
      let now = ContinuousClock.now
      guard !state.uses.isEmpty,
        force || state.uses.count >= batch || now - state.lastFlush >= interval
      else { return nil }
      state.lastFlush = now
      defer { state.uses.removeAll(keepingCapacity: true) }
      return state.uses
    }
  }
}
