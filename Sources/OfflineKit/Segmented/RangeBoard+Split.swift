import Foundation
import OfflineStore

/// Where a new connection splits a busy range (``RangeBoard/claim()``): the slots the board
/// keeps, and the policy that picks the range and the offset, from the slots and the
/// sources' paces alone (no lock of its own: the board calls it under its lock).
extension RangeBoard {
  /// A range of the board, whether a connection holds it, and its request in flight.
  struct Slot {
    var range: TransferRange
    var busy = false
    /// Where the request in flight for this range ends; `range.next` when none is.
    var requested: Int64
    /// When that request went out, the offset it started from, and its source (with
    /// mirrors: whose measured pace is in `State.sourcePaces`), to judge its pace.
    var request: (at: ContinuousClock.Instant, from: Int64, source: Int?)?
    /// Sources not to ask for this range while another can serve it: those that served a
    /// piece of it found bad (``RangeBoard/reopen(_:avoiding:)``).
    var avoid: Set<Int> = []

    init(range: TransferRange, busy: Bool = false, avoid: Set<Int> = []) {
      self.range = range
      self.busy = busy
      self.requested = range.next
      self.avoid = avoid
    }

    /// Bytes of the range no request asks for yet.
    var unrequested: Int64 { max(0, range.end - max(range.next, requested)) }
  }

  /// Where to split a busy range for a new connection: past the request in flight, in the
  /// range with the most bytes beyond it; failing that, in the middle of a range whose
  /// request would take longer than ``cutHorizon`` (the request is cut there). Each half
  /// keeps at least ``minimumSplit`` bytes.
  func splitPoint(in slots: [Slot], paces: [Int: Double]) -> (slot: Int, at: Int64)? {
    var best: (slot: Int, at: Int64, gives: Int64)?
    for index in slots.indices where slots[index].busy {
      let range = slots[index].range
      guard range.remaining >= 2 * minimumSplit else { continue }
      let middle = range.next + range.remaining / 2
      let at = aligned(max(middle, slots[index].requested), within: range)
      guard at - range.next >= minimumSplit, range.end - at >= minimumSplit else { continue }
      if best.map({ range.end - at > $0.gives }) ?? true {
        best = (index, at, range.end - at)
      }
    }
    if let best { return (best.slot, best.at) }
    let slow = slots.indices.filter { slots[$0].busy && isSlow(slots[$0], paces: paces) }
    guard
      let victim = slow.max(by: { slots[$0].range.remaining < slots[$1].range.remaining }),
      slots[victim].range.remaining >= 2 * minimumSplit
    else { return nil }
    let range = slots[victim].range
    guard slowKeepsLittle, let keep = soonBrought(by: slots[victim], paces: paces) else {
      return (victim, range.next + range.remaining / 2)
    }
    return (victim, range.next + min(range.remaining / 2, max(minimumSplit, keep)))
  }

  /// What the request of `slot` brings in ``paceWindow`` at its pace
  /// (``pace(of:paces:)``); nil when it has none.
  private func soonBrought(by slot: Slot, paces: [Int: Double]) -> Int64? {
    pace(of: slot, paces: paces).map { Int64($0 * Self.paceWindow.inSeconds) }
  }

  /// The pace of the request in flight for `slot`, bytes per second: the faster of what it
  /// brought since it went out and its source's pace as measured now (`paces`,
  /// ``didMeasure(source:pace:)``). A fast source's request whose first bytes came late on a
  /// loaded machine was judged slow and cut, and the source had pushed the rest into the
  /// socket: a whole 1 MiB piece sent twice (`GetMetalinkPieceTests`, issue 43). Nil when
  /// neither is known.
  private func pace(of slot: Slot, paces: [Int: Double]) -> Double? {
    guard let request = slot.request else { return nil }
    let elapsed = request.at.duration(to: now()).inSeconds
    let done = slot.range.next - request.from
    let observed = elapsed > 0 && done > 0 ? Double(done) / elapsed : nil
    guard let known = request.source.flatMap({ paces[$0] }), known > 0 else { return observed }
    return max(observed ?? 0, known)
  }

  /// `offset` moved up to the next ``alignment`` boundary when that stays inside `range`
  /// with ``minimumSplit`` bytes after it; else `offset`.
  private func aligned(_ offset: Int64, within range: TransferRange) -> Int64 {
    let up = Self.alignedUp(offset)
    return range.end - up >= minimumSplit ? up : offset
  }

  /// The first ``alignment`` boundary at or after `offset`.
  static func alignedUp(_ offset: Int64) -> Int64 {
    (offset + alignment - 1) / alignment * alignment
  }

  /// Whether the request in flight for `slot` would take longer than ``cutHorizon`` to
  /// finish at the pace it has kept (judged after ``paceWindow``; one that brought nothing
  /// in that time is slow).
  func isSlow(_ slot: Slot, paces: [Int: Double]) -> Bool {
    guard let request = slot.request else { return false }
    let elapsed = request.at.duration(to: now())
    guard elapsed >= Self.paceWindow else { return false }
    let left = max(0, min(slot.requested, slot.range.end) - slot.range.next)
    guard let pace = pace(of: slot, paces: paces) else { return left > 0 }
    return Double(left) / pace > Self.cutHorizon.inSeconds
  }
}
