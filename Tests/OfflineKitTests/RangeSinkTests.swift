import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// How one connection's sink places its bytes while other connections split its range
/// (issue 14, the capped origin): a body part took the board's lock three times (where to
/// write, what was written, whether the range was done); with 16 connections on two cores
/// their waits were 11 % of the samples, and a connection preempted while holding the lock
/// stalled the others. A part now takes the lock once and is placed from the range the last
/// write returned; these pin that such a placement never writes past a split.
@Suite(.timed) struct RangeSinkTests {
  /// A part file of `size` zero bytes, open for reading and writing, removed with the
  /// folder (named from `prefix`); ``PieceReadBackTests`` uses it too.
  struct Part {
    let folder: TemporaryDirectory
    let descriptor: Int32

    init(size: Int, prefix: String = "offlinekit-rangesink") throws {
      folder = try TemporaryDirectory(prefix: prefix)
      descriptor = open(folder.file("part").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      try #require(descriptor >= 0)
      try #require(ftruncate(descriptor, off_t(size)) == 0)
    }

    var bytes: Data { FileManager.default.contents(atPath: folder.file("part").path) ?? Data() }
  }

  /// Feeds `body` to `sink` in parts of `partSize` from `offset`, until the sink says its
  /// range is done; calls `between` after each part. Returns the bytes it took.
  static func feed(
    _ body: Data, from offset: Int, partSize: Int, to sink: RangeSink,
    between: (Int) -> Void = { _ in }
  ) throws -> Int {
    var at = offset
    while at < body.count {
      let end = min(body.count, at + partSize)
      do {
        try body[at..<end].withUnsafeBytes { try sink.didReceiveBodyPart($0) }
      } catch is RangeSink.RangeDone {
        return end - offset
      }
      at = end
      between(at)
    }
    return at - offset
  }

  /// Another connection takes the second half of the range while its owner is writing: the
  /// owner writes up to the split and stops there, not one byte past it, and the board
  /// records exactly that.
  @Test func aSplitWhileTheOwnerWritesStopsItAtTheSplit() throws {
    let size = 8 << 20
    let part = try Part(size: size)
    defer { close(part.descriptor) }
    let body = TestData.bytes(count: size, seed: 71)
    let board = RangeBoard(
      [TransferRange(start: 0, end: Int64(size), next: 0)], minimumSplit: 1 << 20)
    let owner = try #require(board.claim())
    // Asked up to the range's end, as no request is now: the split cuts it.
    let sink = RangeSink(
      board: board, slot: owner, request: 0..<Int64(size), descriptor: part.descriptor)
    var split: TransferRange?

    _ = try Self.feed(body, from: 0, partSize: 16 << 10, to: sink) { written in
      guard split == nil, written >= 1 << 20 else { return }
      let thief = board.claim()
      split = thief.map { board.range($0) }
    }
    sink.finishHashing()

    let middle = try #require(split).start
    #expect(middle > 1 << 20 && middle < Int64(size))
    #expect(board.range(owner) == TransferRange(start: 0, end: middle, next: middle))
    #expect(sink.received == middle)
    let file = part.bytes
    #expect(file.prefix(Int(middle)) == body.prefix(Int(middle)))
    #expect(file.suffix(from: Int(middle)).allSatisfy { $0 == 0 }, "written past the split")
  }

  /// A part longer than the board's `minimumSplit` (a transport that hands over large
  /// parts) is written whole, a piece at a time, and the range ends where it should.
  @Test func aPartLongerThanTheMinimumSplitIsWrittenWhole() throws {
    let size = 3 << 20 + 5
    let part = try Part(size: size)
    defer { close(part.descriptor) }
    let body = TestData.bytes(count: size, seed: 72)
    let board = RangeBoard(
      [TransferRange(start: 0, end: Int64(size), next: 0)], minimumSplit: 256 << 10)
    let owner = try #require(board.claim())
    let sink = RangeSink(
      board: board, slot: owner, request: 0..<Int64(size), descriptor: part.descriptor)

    let taken = try Self.feed(body, from: 0, partSize: 1 << 20, to: sink)
    sink.finishHashing()

    #expect(taken == size)
    #expect(sink.rangeDone)
    #expect(board.range(owner).remaining == 0)
    #expect(part.bytes == body)
  }
}
