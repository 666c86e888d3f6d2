import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 14 (HLS CPU, fourth pass): each piece of a stream allocated a fresh 128 KiB write
/// buffer for its part and freed it at the end (glibc's consolidation, and the pages faulted
/// in again by the first body part, every piece). Parts that close now leave their buffer to
/// the next; what is kept stays bounded.
///
/// The pool is process-wide: in a parallel run, parts of other suites take and give buffers
/// between a test's steps. So each test repeats its steps (at most `attempts` times) until
/// one round ran undisturbed; a pool that does not keep or hand back buffers fails every round.
@Suite(.serialized, .timed) struct PartBufferPoolTests {
  /// Rounds a test may try before it fails: one undisturbed round is enough.
  static let attempts = 50

  /// Takes every buffer the pool holds now, so a round starts from an empty pool.
  static func drain() {
    var taken: [UnsafeMutableRawBufferPointer] = []
    for _ in 0..<PartBufferPool.capacity {
      taken.append(PartBufferPool.take(count: PartBufferPool.size))
    }
    for buffer in taken { buffer.deallocate() }
  }

  @Test func aPartThatClosedLeavesItsBufferToTheNextPart() throws {
    var reused = false
    for _ in 0..<Self.attempts where !reused {
      Self.drain()
      let first = PartBufferPool.take(count: PartBufferPool.size)
      let address = first.baseAddress
      PartBufferPool.give(first)
      let second = PartBufferPool.take(count: PartBufferPool.size)
      reused = second.baseAddress == address
      #expect(second.count == PartBufferPool.size)
      #expect(Int(bitPattern: second.baseAddress) % 4096 == 0)
      PartBufferPool.give(second)
    }
    #expect(reused, "no round handed the closed part's buffer to the next part")
  }

  /// More parts closing than the pool keeps: the rest are freed, so at most `capacity`
  /// buffers (2 MiB) outlive their parts.
  @Test func thePoolKeepsAtMostItsCapacity() throws {
    var keptExactly = false
    for _ in 0..<Self.attempts where !keptExactly {
      Self.drain()
      let many = (0..<PartBufferPool.capacity + 4).map { _ in
        PartBufferPool.take(count: PartBufferPool.size)
      }
      for buffer in many { PartBufferPool.give(buffer) }

      let kept = Set(many.prefix(PartBufferPool.capacity).map(\.baseAddress))
      let again = (0..<PartBufferPool.capacity + 1).map { _ in
        PartBufferPool.take(count: PartBufferPool.size)
      }
      // The first `capacity` given back are the ones handed out again (more kept would be
      // handed out last first, the last given back among them).
      keptExactly = Set(again.prefix(PartBufferPool.capacity).map(\.baseAddress)) == kept
      for buffer in again { PartBufferPool.give(buffer) }
    }
    #expect(keptExactly, "no round handed out exactly the first `capacity` buffers given back")
  }
}
