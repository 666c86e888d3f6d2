/// When each Period starts and how long it lasts (ISO/IEC 23009-1 §5.3.2.1).
extension MPD {
  /// The start of the Period at `index`, in seconds: its `@start`, else the end of the
  /// Period before it, else 0 for the first Period of a static presentation; nil when
  /// unknown.
  public func periodStart(at index: Int) -> Double? {
    guard periods.indices.contains(index) else { return nil }
    var start: Double? = nil
    for (position, period) in periods[...index].enumerated() {
      if let own = period.start {
        start = own
      } else if position == 0 {
        start = type == .static ? 0 : nil
      } else if let previous = start, let duration = periods[position - 1].duration {
        start = previous + duration
      } else {
        start = nil
      }
    }
    return start
  }

  /// The duration of the Period at `index`, in seconds: its `@duration`, else up to the next
  /// Period's start, else (for the last one) up to `mediaPresentationDuration`; nil when
  /// unknown or negative.
  public func periodDuration(at index: Int) -> Double? {
    guard periods.indices.contains(index) else { return nil }
    if let duration = periods[index].duration { return duration }
    guard let start = periodStart(at: index) else { return nil }
    let end: Double?
    if index + 1 < periods.count {
      end = periods[index + 1].start
    } else {
      end = mediaPresentationDuration
    }
    guard let end, end >= start else { return nil }
    return end - start
  }
}
