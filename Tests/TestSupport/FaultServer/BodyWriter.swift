import Foundation

/// Sends a response body in 256 KiB slices, applying cut, stall and pacing faults.
struct BodyWriter {
  /// The faults that shape one body.
  struct Plan {
    /// Stop (and let the caller close) after this many bytes.
    var cutAfter: Int?
    /// Pause once after this many bytes.
    var stallAfter: Int?
    /// The length of that pause in seconds.
    var stallSeconds: Double = 0
    /// Pace the body to about this many bytes per second.
    var bytesPerSecond: Int?
  }

  /// The largest slice handed to `send` at once.
  static let sliceSize = 256 << 10

  let fd: Int32
  let core: FaultServerCore
  let plan: Plan

  /// Sends `payload[range]` (or its first `cutAfter` bytes); false if the peer went away or
  /// the server is stopping, in which case the connection must close.
  func send(_ payload: Data, range: Range<Int>) -> Bool {
    let limit = min(range.count, max(0, plan.cutAfter ?? .max))
    let start = Date()
    var stalled = false
    return payload.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress?.advanced(by: range.lowerBound) else { return true }
      var offset = 0
      while offset < limit {
        if let stallAfter = plan.stallAfter, !stalled, offset >= stallAfter {
          stalled = true
          guard core.pause(plan.stallSeconds) else { return false }
        }
        var end = min(limit, offset + Self.sliceSize)
        if let stallAfter = plan.stallAfter, !stalled, stallAfter > offset {
          end = min(end, stallAfter)
        }
        if let rate = plan.bytesPerSecond, rate > 0 {
          end = min(end, offset + max(1, rate / 20))
          let due = Double(offset) / Double(rate) - Date().timeIntervalSince(start)
          if due > 0, !core.pause(due) { return false }
        }
        if core.isStopping { return false }
        let slice = UnsafeRawBufferPointer(start: base + offset, count: end - offset)
        guard Socket.sendAll(fd, slice) else { return false }
        offset = end
      }
      return true
    }
  }
}
