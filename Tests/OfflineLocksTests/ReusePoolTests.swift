import OfflineLocks
import TestTiming
import Testing

/// The pool the delivery blocks and the part buffers are kept in (issue 14): bounded, so a
/// burst of ended requests never keeps more memory than it says.
@Suite(.timed) struct ReusePoolTests {
  @Test func keepsAtMostItsCapacityAndSaysWhenFull() {
    let pool = ReusePool<Int>(capacity: 2)
    #expect(pool.give(1))
    #expect(pool.give(2))
    #expect(!pool.give(3), "a third is refused, for the caller to free")
    #expect(pool.take() == 2)
    #expect(pool.take() == 1)
    #expect(pool.take() == nil)
  }

  @Test func givesEachKeptThingToOneTakerOnly() async {
    let pool = ReusePool<Int>(capacity: 1000)
    for value in 0..<1000 { pool.give(value) }
    let taken = await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<8 {
        group.addTask {
          var mine: [Int] = []
          while let value = pool.take() { mine.append(value) }
          return mine
        }
      }
      var all: [Int] = []
      for await mine in group { all += mine }
      return all
    }
    #expect(taken.sorted() == Array(0..<1000))
  }
}
