import OfflineStore
import Synchronization

/// The ranges of a segmented download and who is fetching which, shared by its connections.
///
/// A connection claims an idle range with bytes left; when none is left it takes the second
/// half of the busy range with the most left (the range's end moves back to the split), so
/// the last seconds are not spent waiting on one slow connection.
final class RangeBoard: Sendable {
  private struct Slot {
    var range: TransferRange
    var busy = false
  }

  /// A range is split only when each half keeps at least this many bytes.
  let minimumSplit: Int64
  private let slots: Mutex<[Slot]>

  init(_ ranges: [TransferRange], minimumSplit: Int64 = 2 << 20) {
    self.minimumSplit = minimumSplit
    self.slots = Mutex(ranges.map { Slot(range: $0) })
  }

  /// Claims a range to fetch, or nil when every byte is claimed or written.
  func claim() -> Int? {
    slots.withLock { slots in
      if let idle = slots.indices.first(where: { !slots[$0].busy && slots[$0].range.remaining > 0 })
      {
        slots[idle].busy = true
        return idle
      }
      guard
        let victim = slots.indices.filter({ slots[$0].busy })
          .max(by: { slots[$0].range.remaining < slots[$1].range.remaining }),
        slots[victim].range.remaining >= 2 * minimumSplit
      else { return nil }
      let range = slots[victim].range
      let middle = range.next + range.remaining / 2
      slots[victim].range.end = middle
      slots.append(
        Slot(range: TransferRange(start: middle, end: range.end, next: middle), busy: true))
      return slots.count - 1
    }
  }

  /// The range of `slot` now (its end may move back when another connection takes half).
  func range(_ slot: Int) -> TransferRange {
    slots.withLock { $0[slot].range }
  }

  /// How many of `count` bytes arriving for `slot` belong to it, and where they go.
  func placement(_ slot: Int, count: Int) -> (offset: Int64, count: Int) {
    slots.withLock { slots in
      let range = slots[slot].range
      return (range.next, Int(min(Int64(count), range.remaining)))
    }
  }

  /// Records that `count` bytes of `slot` are written.
  func didWrite(_ slot: Int, count: Int) {
    slots.withLock { slots in
      slots[slot].range.next = min(slots[slot].range.end, slots[slot].range.next + Int64(count))
    }
  }

  /// Lets another connection claim `slot` (after a failure, or when it is complete).
  func release(_ slot: Int) {
    slots.withLock { $0[slot].busy = false }
  }

  /// Every range as it stands, in file order.
  func snapshot() -> [TransferRange] {
    slots.withLock { $0.map(\.range) }.sorted { $0.start < $1.start }
  }

  /// Bytes written so far.
  var written: Int64 {
    slots.withLock { $0.reduce(0) { $0 + ($1.range.next - $1.range.start) } }
  }

  /// Whether every byte is written.
  var isComplete: Bool {
    slots.withLock { $0.allSatisfy { $0.range.remaining == 0 } }
  }
}
