/// A set of media-sequence numbers kept as sorted, disjoint runs, so a recording of a
/// 24/7 channel stays a few ranges long instead of one entry per segment.
///
/// ```swift
/// var recorded = SequenceRanges()
/// recorded.insert(4)
/// recorded.insert(5)
/// recorded.runs  // [4...5]
/// ```
struct SequenceRanges: Sendable, Equatable, Codable {
  /// The runs, sorted, neither overlapping nor touching.
  private(set) var runs: [ClosedRange<Int>] = []

  /// An empty set.
  init() {}

  /// The set of `numbers`, in any order.
  init(_ numbers: some Sequence<Int>) {
    for number in numbers { insert(number) }
  }

  /// Whether no number is in the set.
  var isEmpty: Bool { runs.isEmpty }

  /// How many numbers are in the set.
  var count: Int { runs.reduce(0) { $0 + $1.count } }

  /// The smallest number in the set, nil when it is empty.
  var first: Int? { runs.first?.lowerBound }

  /// The largest number in the set, nil when it is empty.
  var last: Int? { runs.last?.upperBound }

  /// Whether `number` is in the set.
  func contains(_ number: Int) -> Bool {
    index(containing: number) != nil
  }

  /// Adds `numbers`, merging the runs it overlaps or touches.
  mutating func insert(_ numbers: ClosedRange<Int>) {
    var merged = numbers
    var kept: [ClosedRange<Int>] = []
    var position = 0
    for run in runs {
      if run.upperBound + 1 < merged.lowerBound {
        kept.append(run)
        position = kept.count
      } else if merged.upperBound + 1 < run.lowerBound {
        kept.append(run)
      } else {
        merged =
          min(run.lowerBound, merged.lowerBound)...max(run.upperBound, merged.upperBound)
      }
    }
    kept.insert(merged, at: position)
    runs = kept
  }

  /// Adds `number`.
  mutating func insert(_ number: Int) {
    insert(number...number)
  }

  /// The index of the run that holds `number`, by binary search.
  private func index(containing number: Int) -> Int? {
    var low = 0
    var high = runs.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let run = runs[middle]
      if number < run.lowerBound {
        high = middle - 1
      } else if number > run.upperBound {
        low = middle + 1
      } else {
        return middle
      }
    }
    return nil
  }
}
