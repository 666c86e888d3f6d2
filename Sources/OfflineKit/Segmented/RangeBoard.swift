import Foundation
import OfflineLocks
import OfflineStore

/// The ranges of a segmented download and who is fetching which, shared by its connections.
///
/// A connection claims an idle range with bytes left; when none is left it takes the second
/// half of the busy range with the most left (the range's end moves back to the split), so
/// the last seconds are not spent waiting on one slow connection. Every change is also
/// stored at once in the mapped progress file, when there is one (``RangeProgressMap``).
final class RangeBoard: Sendable {
  private struct Slot {
    var range: TransferRange
    var busy = false
  }

  /// The slots, and the map that mirrors them; both touched only under the lock.
  private struct State: @unchecked Sendable {
    var slots: [Slot]
    let map: RangeProgressMap?

    func mirror(_ slot: Int) {
      let range = slots[slot].range
      map?.store(slot: slot, start: range.start, end: range.end, next: range.next)
    }
  }

  /// Held around each write into the part, so its connections write one at a time.
  ///
  /// ext4 takes the file's inode lock for every buffered write; sixteen connections writing
  /// at once on two cores spent 11 % of the samples spinning on it in the kernel
  /// (`rwsem_spin_on_owner`), burning the CPU the other writers needed. Waiting here sleeps
  /// instead (a plain `pthread` mutex, not the priority-inheriting futex of `Mutex`).
  let writes = NSLock()
  /// A range is split only when each half keeps at least this many bytes.
  let minimumSplit: Int64
  private let state: Locked<State>

  init(_ ranges: [TransferRange], map: RangeProgressMap? = nil, minimumSplit: Int64 = 2 << 20) {
    self.minimumSplit = minimumSplit
    let initial = State(slots: ranges.map { Slot(range: $0) }, map: map)
    map?.clear()
    for slot in ranges.indices { initial.mirror(slot) }
    self.state = Locked(initial)
  }

  /// Claims a range to fetch, or nil when every byte is claimed or written.
  func claim() -> Int? {
    state.withLock { state in
      if let idle = state.slots.indices.first(where: {
        !state.slots[$0].busy && state.slots[$0].range.remaining > 0
      }) {
        state.slots[idle].busy = true
        return idle
      }
      guard
        let victim = state.slots.indices.filter({ state.slots[$0].busy })
          .max(by: { state.slots[$0].range.remaining < state.slots[$1].range.remaining }),
        state.slots[victim].range.remaining >= 2 * minimumSplit
      else { return nil }
      let range = state.slots[victim].range
      let middle = range.next + range.remaining / 2
      state.slots[victim].range.end = middle
      state.slots.append(
        Slot(range: TransferRange(start: middle, end: range.end, next: middle), busy: true))
      state.mirror(victim)
      state.mirror(state.slots.count - 1)
      return state.slots.count - 1
    }
  }

  /// The range of `slot` now (its end may move back when another connection takes half).
  func range(_ slot: Int) -> TransferRange {
    state.withLock { $0.slots[slot].range }
  }

  /// Records that `count` bytes of `slot` are written (call after the write returned) and
  /// returns the slot's range as it now stands.
  ///
  /// What its connection writes next may be placed from that range without asking again
  /// (the one lock a body part takes, where three were taken; with 16 connections on two
  /// cores their waits were 11 % of the samples): only this connection moves `next`, and a
  /// split (``claim()``) moves `end` back to no less than ``minimumSplit`` bytes past `next`,
  /// so the next ``minimumSplit`` bytes from `next` are the slot's whatever happened since.
  @discardableResult
  func didWrite(_ slot: Int, count: Int) -> TransferRange {
    state.withLock { state in
      let range = state.slots[slot].range
      state.slots[slot].range.next = min(range.end, range.next + Int64(count))
      state.mirror(slot)
      return state.slots[slot].range
    }
  }

  /// Lets another connection claim `slot` (after a failure, or when it is complete).
  func release(_ slot: Int) {
    state.withLock { $0.slots[slot].busy = false }
  }

  /// Every range as it stands, in file order.
  func snapshot() -> [TransferRange] {
    state.withLock { $0.slots.map(\.range) }.sorted { $0.start < $1.start }
  }

  /// Bytes written so far.
  var written: Int64 {
    state.withLock { $0.slots.reduce(0) { $0 + ($1.range.next - $1.range.start) } }
  }

  /// Whether every byte is written.
  var isComplete: Bool {
    state.withLock { $0.slots.allSatisfy { $0.range.remaining == 0 } }
  }
}
