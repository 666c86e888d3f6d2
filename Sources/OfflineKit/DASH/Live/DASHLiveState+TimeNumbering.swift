import DASHManifest
import Foundation

extension DASHLiveState {
  /// Numbers for the segments of a track whose names use `$Time$` only, made from their
  /// times so that one segment keeps its number across MPD updates (the origin's
  /// `@startNumber` need not follow a sliding timeline): the first segment seen is 1, each
  /// later one the next number, and a segment that starts after the last one seen ended
  /// skips as many numbers as segments of its duration fit between, so segments that left
  /// the window unseen become that many numbers in the gap ledger.
  struct TimeNumbering: Sendable, Equatable, Codable {
    /// The numbers of the segments of the last window and those seen after it, by time.
    var numbers: [UInt64: Int] = [:]
    /// The number of the latest segment seen.
    var lastNumber: Int?
    /// When the latest segment seen starts and ends, in timescale units.
    var lastTime: UInt64?
    var lastEnd: UInt64?

    /// `segments` (lowest time first) numbered; a segment older than the latest one seen
    /// that was never seen itself (a timeline rewritten backwards) is left out.
    mutating func number(_ segments: [SegmentReference]) -> [SegmentReference] {
      var result: [SegmentReference] = []
      for var segment in segments {
        guard let time = segment.time else { continue }
        if let known = numbers[time] {
          segment.number = UInt64(known)
        } else if let lastTime, time <= lastTime {
          continue
        } else {
          var next = (lastNumber ?? 0) + 1
          if let lastEnd, time > lastEnd, let duration = segment.duration, duration > 0 {
            next += Int((Double(time - lastEnd) / Double(duration)).rounded())
          }
          numbers[time] = next
          lastNumber = next
          lastTime = time
          lastEnd = time + (segment.duration ?? 0)
          segment.number = UInt64(next)
        }
        result.append(segment)
      }
      if let first = result.first?.time { numbers = numbers.filter { $0.key >= first } }
      return result
    }
  }
}
