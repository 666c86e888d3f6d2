/// One `S` element of a `SegmentTimeline` (ISO/IEC 23009-1 §5.3.9.6): `repeatCount + 1`
/// segments of `duration` each, the first one at `time`.
public struct SegmentTimelineEntry: Sendable, Equatable {
  /// `@t`: the start of the first segment, in timescale units; nil means right after the
  /// previous entry (0 for the first one).
  public var time: UInt64?
  /// `@d`: the duration of each segment, in timescale units; 0 for a segment that lasts no
  /// time, which keeps its number but is never fetched.
  public var duration: UInt64
  /// `@r`: how many more segments of the same duration follow; -1 means as many as fit up
  /// to the next entry's `t`, or to the end of the Period.
  public var repeatCount: Int

  /// Creates a timeline entry.
  public init(time: UInt64? = nil, duration: UInt64, repeatCount: Int = 0) {
    self.time = time
    self.duration = duration
    self.repeatCount = repeatCount
  }
}
