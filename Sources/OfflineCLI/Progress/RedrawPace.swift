import Foundation
import OfflineLocks

/// At most four redraws a second: progress arrives far more often than a terminal needs it.
final class RedrawPace: Sendable {
  private let interval: TimeInterval
  private let last = Locked<Date?>(nil)

  /// A pace of one redraw per `interval` seconds.
  init(interval: TimeInterval = 0.25) { self.interval = interval }

  /// Whether a redraw is due now; if so, the next one is due `interval` later.
  func isDue(now: Date = Date()) -> Bool {
    last.withLock { last in
      if let previous = last, now.timeIntervalSince(previous) < interval { return false }
      last = now
      return true
    }
  }
}
