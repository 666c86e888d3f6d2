/// Checks that a stream's presentation times, once put in presentation order, only grow:
/// packets come in decode order, so a frame may be presented before the ones read just before
/// it (B-frames), but never before one read further back than `depth` packets.
///
/// Matroska stores presentation times only (libavformat makes decode times up when it reads
/// it back), so this is the timeline check that holds for every container. A value with no
/// I/O, a small window of the last `depth` times.
struct PresentationOrder: Sendable {
  private var window: [Int64] = []
  private var last: Int64?
  private let depth: Int

  /// Makes a check that lets a frame be presented before at most `depth - 1` frames read
  /// before it (H.264 and HEVC reorder at most 16).
  init(depth: Int = 32) { self.depth = depth }

  /// Adds the next packet's presentation time; false when the times cannot be in order.
  mutating func add(_ pts: Int64) -> Bool {
    window.append(pts)
    guard window.count > depth else { return true }
    return releaseEarliest()
  }

  /// Checks what is left in the window; false when the times cannot be in order.
  mutating func finish() -> Bool {
    while !window.isEmpty {
      if !releaseEarliest() { return false }
    }
    return true
  }

  private mutating func releaseEarliest() -> Bool {
    let index = window.indices.min { window[$0] < window[$1] }!
    let earliest = window.remove(at: index)
    defer { last = earliest }
    return last.map { earliest > $0 } ?? true
  }
}
