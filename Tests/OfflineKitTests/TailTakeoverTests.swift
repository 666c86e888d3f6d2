import Foundation
import OfflineStore
import TestTiming
import Testing

@testable import OfflineKit

/// The end game of a download from mirrors of different speeds (issue 43): once nothing is
/// left to claim, an idle fast connection takes over the tail of a slow request, so the slow
/// mirror never holds the end of the file. The decision, as a table, and the board carrying
/// it out.
@Suite(.timed) struct TailTakeoverTests {
  static let mib: Int64 = 1 << 20
  /// 40 MiB/s, the fast mirrors' pace in the benchmark; the slow one has a tenth of it.
  static let fast = Double(40 << 20)
  static let slow = Double(4 << 20)

  static let takeover = TailTakeover(
    pace: fast, startup: .milliseconds(100), keep: TailTakeover.keep)

  /// A request of a 1 MiB tail that has run `elapsed` and brought `brought` bytes.
  static func request(
    slot: Int = 0, left: Int64 = mib, elapsed: Duration = .seconds(1), brought: Int64,
    sourcePace: Double? = nil
  ) -> TailTakeover.Request {
    TailTakeover.Request(
      slot: slot, next: 10 * mib, end: 10 * mib + left, elapsed: elapsed, brought: brought,
      sourcePace: sourcePace)
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var requests: [TailTakeover.Request]
    /// The slot taken over and where, or nil.
    var expected: (slot: Int, at: Int64)?
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "a slow mirror's last MiB: cut where it will be when the fast request begins",
      requests: [request(brought: Int64(slow))],
      // 0.1 s at 4 MiB/s is 400 KiB, more than the 128 KiB it keeps at least.
      expected: (0, 10 * mib + Int64(slow / 10))),
    Row(
      name: "a request as fast as the idle connection is left alone",
      requests: [request(brought: Int64(fast))], expected: nil),
    Row(
      name: "a request a little slower (less than the margin) is left alone",
      requests: [request(brought: Int64(fast / 1.3))], expected: nil),
    Row(
      name: "a tail shorter than what the slow request keeps plus 64 KiB is left alone",
      requests: [request(left: 160 << 10, brought: 1 << 20, sourcePace: Double(1 << 20))],
      expected: nil),
    Row(
      name: "a request not measured yet is left alone",
      requests: [request(elapsed: .milliseconds(150), brought: 1 << 10)], expected: nil),
    Row(
      name: "a fast source's request that has brought nothing yet is left alone",
      requests: [request(elapsed: .seconds(1), brought: 0, sourcePace: fast)], expected: nil),
    Row(
      name: "a fast source's request read late (loaded machine) is left alone",
      requests: [request(elapsed: .seconds(1), brought: 64 << 10, sourcePace: fast)],
      expected: nil),
    Row(
      name: "an unmeasured source's request that brought nothing in 2 s is taken over",
      requests: [request(elapsed: .seconds(2), brought: 0)],
      expected: (0, 10 * mib + TailTakeover.keep)),
    Row(
      name: "of two slow requests, the one with the longest time left",
      requests: [
        request(slot: 3, left: mib, brought: Int64(slow)),
        request(slot: 5, left: 2 * mib, brought: Int64(slow)),
      ],
      expected: (5, 10 * mib + Int64(slow / 10))),
    Row(
      name: "a very slow request keeps only the least (128 KiB)",
      requests: [request(brought: 64 << 10)],
      expected: (0, 10 * mib + TailTakeover.keep)),
  ]

  @Test(arguments: rows) func theEndGameTakesOverOnlyATailWorthTaking(_ row: Row) {
    let decision = Self.takeover.decide(row.requests)
    #expect(decision?.slot == row.expected?.slot)
    #expect(decision?.at == row.expected?.at)
  }

  @Test func anIdleConnectionWithNoMeasuredPaceTakesNothing() {
    let idle = TailTakeover(pace: 0, startup: .milliseconds(100), keep: TailTakeover.keep)
    #expect(idle.decide([Self.request(brought: 1 << 10)]) == nil)
  }

  /// The board with the slow request of a mirror at the end of the file: the idle fast
  /// connection takes its tail, the slow range ends at the takeover point (so its request is
  /// cut there and no byte is written twice), and nothing else is left to take.
  @Test func theBoardHandsTheSlowRequestsTailToTheFastConnection() {
    let clock = RangeBoardTests.Clock()
    let board = RangeBoard(
      [TransferRange(start: 0, end: 4 * Self.mib, next: 0)], minimumSplit: Self.mib / 2,
      now: { clock.now }, slowKeepsLittle: true)
    let owner = board.claim()!
    #expect(board.beginRequest(owner, preferredSpan: nil) == 0..<4 * Self.mib)
    clock.advance(by: .seconds(1))
    board.didWrite(owner, count: Int(3 * Self.mib))  // 3 MiB/s: 1 MiB left, 0.33 s
    #expect(board.claim() == nil, "1 MiB left: no split, and not slow by the 2 s horizon")

    let tail = board.claimTail(pace: Self.fast, startup: .milliseconds(100))
    #expect(tail != nil)
    let at = 3 * Self.mib + 3 * Self.mib / 10  // 0.1 s at 3 MiB/s
    #expect(board.range(owner) == TransferRange(start: 0, end: at, next: 3 * Self.mib))
    #expect(board.range(tail!) == TransferRange(start: at, end: 4 * Self.mib, next: at))
    #expect(board.claimTail(pace: Self.fast, startup: .milliseconds(100)) == nil)
    // The slow writer sees its range end at the takeover point: what it writes past it is
    // not recorded, and the file's ranges cover every byte once.
    board.didWrite(owner, count: Int(Self.mib))
    #expect(board.range(owner).next == at)
    #expect(board.snapshot().map(\.end) == [at, 4 * Self.mib])
  }

  /// A slow request keeps at least the board's write grain: a writer places up to that many
  /// bytes from the range it last saw, so a takeover point nearer would have them written
  /// twice.
  @Test func aSlowRequestKeepsAtLeastTheWriteGrain() {
    let clock = RangeBoardTests.Clock()
    let board = RangeBoard(
      [TransferRange(start: 0, end: 2 * Self.mib, next: 0)], minimumSplit: Self.mib / 2,
      now: { clock.now }, slowKeepsLittle: true)
    #expect(board.writeGrain == TailTakeover.keep)
    let owner = board.claim()!
    _ = board.beginRequest(owner, preferredSpan: nil, source: 1, sourcePace: Double(64 << 10))
    clock.advance(by: .seconds(1))
    board.didWrite(owner, count: 64 << 10)
    let tail = board.claimTail(pace: Self.fast, startup: .milliseconds(100))
    #expect(tail != nil)
    #expect(board.range(owner).end - board.range(owner).next == board.writeGrain)
  }
}
