import Foundation

/// Which segments of one Period of a live presentation are available at a wall-clock
/// instant (DASH-IF IOP §4.3.2.2): a segment becomes available once it is complete, at
/// `availabilityStartTime + PeriodStart + its end`, and stays so for `timeShiftBufferDepth`
/// plus its duration.
struct LiveWindow {
  /// Seconds from the Period's start to the instant; nil without `availabilityStartTime`.
  let elapsed: Double?
  /// `timeShiftBufferDepth`; nil for as long as the presentation lasts.
  let depth: Double?
  /// The Period's duration, when known.
  let periodDuration: Double?

  /// Slack for times computed in floating point: a segment due at the instant is available.
  private static let slack = 1e-6

  /// The window of Period `period` of `mpd` at `now`; a first Period without `@start`
  /// starts at 0.
  init(mpd: MPD, period: Int, now: Date) {
    let start = mpd.periodStart(at: period) ?? 0
    elapsed = mpd.live.availabilityStartTime.map {
      now.timeIntervalSince($0) - start
    }
    depth = mpd.live.timeShiftBufferDepth
    periodDuration = mpd.periodDuration(at: period)
  }

  /// The 0-based indices of the `duration`-long segments available, the last one excluded
  /// from the range's end; nil when the start of availability is unknown.
  func indices(duration: Double) -> Range<Int>? {
    guard let elapsed else { return nil }
    guard elapsed > 0, duration > 0 else { return 0..<0 }
    let bound = Double(Int.max / 4)
    var end = min((elapsed / duration + Self.slack).rounded(.down), bound)
    if let periodDuration {
      end = min(end, (periodDuration / duration - Self.slack).rounded(.up))
    }
    var first = 0.0
    if let depth {
      first = max(0, ((elapsed - depth) / duration - 2 - Self.slack).rounded(.up))
    }
    guard end > first else { return 0..<0 }
    return Int(first)..<Int(end)
  }

  /// Whether a segment starting `start` seconds into the Period and lasting `duration` is
  /// available (true when the start of availability is unknown).
  func holds(start: Double, duration: Double) -> Bool {
    guard let elapsed else { return true }
    let end = start + duration
    guard end <= elapsed + Self.slack else { return false }
    if let depth, elapsed > end + depth + duration + Self.slack { return false }
    return true
  }

  /// `timeline` with an `r="-1"` on its last entry replaced by the number of segments that
  /// are complete at the instant; `offset` is the template's `@presentationTimeOffset`.
  ///
  /// - Throws: `unsupported` for such an entry when the start of availability is unknown.
  func closing(
    _ timeline: [SegmentTimelineEntry], timescale: UInt64, offset: Int64,
    path: RepresentationPath
  ) throws -> [SegmentTimelineEntry] {
    guard var last = timeline.last, last.repeatCount < 0 else { return timeline }
    guard let elapsed else {
      throw MPDError(
        .unsupported, at: path.description + "/SegmentTemplate/SegmentTimeline",
        "The last S has r=\"-1\" and availabilityStartTime is missing, so how many segments"
          + " it stands for is not known.")
    }
    var cursor: UInt64 = 0
    for (index, entry) in timeline.dropLast().enumerated() {
      let start = entry.time ?? cursor
      if entry.repeatCount >= 0 {
        let (span, o1) = UInt64(entry.repeatCount + 1).multipliedReportingOverflow(
          by: entry.duration)
        let (next, o2) = start.addingReportingOverflow(span)
        cursor = o1 || o2 ? UInt64.max : next
      } else {
        cursor = timeline[index + 1].time ?? start
      }
    }
    let start = last.time ?? cursor
    last.time = start
    var result = Array(timeline.dropLast())
    guard last.duration > 0 else { return result }
    let edge = (elapsed + Self.slack) * Double(timescale) + Double(offset)
    let count = ((edge - Double(start)) / Double(last.duration)).rounded(.down)
    guard count >= 1 else { return result }
    last.repeatCount = Int(min(count, Double(Int32.max))) - 1
    result.append(last)
    return result
  }
}
