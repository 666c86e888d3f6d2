import Foundation

extension SegmentResolver {
  /// The segments of the Representation at `path` of a live presentation that are available
  /// at the wall-clock instant `now` (ISO/IEC 23009-1 §5.3.9.5.3, DASH-IF IOP §4.3.3):
  ///
  /// - a `SegmentTemplate` with `@duration` (no timeline): segment `n` becomes available
  ///   at `availabilityStartTime + PeriodStart + (n - startNumber + 1) * duration` (once it
  ///   is complete) and stays so for `timeShiftBufferDepth` plus its duration; numbers come
  ///   from `@startNumber`, times from the number, so both are stable across MPD updates;
  /// - a `SegmentTimeline`: the segments it lists (an `r="-1"` on the last entry repeats up
  ///   to `now`), those that end after `now` or left the time-shift buffer dropped when
  ///   `availabilityStartTime` is known.
  ///
  /// A first Period without `@start` starts at 0. The window is bounded to the last
  /// ``maximumSegmentCount`` segments (a channel without a time-shift buffer started years
  /// ago); a Period whose end is known ends it.
  ///
  /// - Throws: `MPDError`: as ``segments(for:in:manifestURL:)``; `missingAttribute` for a
  ///   template with `@duration` without `availabilityStartTime`; `unsupported` for a
  ///   `SegmentList` or `SegmentBase`, which a live presentation cannot grow.
  public func availableSegments(
    for path: RepresentationPath, in mpd: MPD, manifestURL: URL, at now: Date
  ) throws -> RepresentationSegments {
    guard mpd.periods.indices.contains(path.period) else {
      throw MPDError(.missingAttribute, at: path.description, "There is no such Representation.")
    }
    guard var template = mpd.mergedTemplate(at: path) else {
      throw MPDError(
        .unsupported, at: path.description,
        "A live Representation needs a SegmentTemplate; a SegmentList or SegmentBase does not"
          + " say which segments are available.")
    }
    let window = LiveWindow(mpd: mpd, period: path.period, now: now)
    let timescale = template.timescale ?? 1
    if let timeline = template.timeline {
      template.timeline = try window.closing(
        timeline, timescale: timescale, offset: template.presentationTimeOffset ?? 0, path: path)
      var listing = try segments(for: path, in: mpd, replacing: template, manifestURL: manifestURL)
      if window.elapsed != nil {
        let offset = template.presentationTimeOffset ?? 0
        listing.segments.removeAll { segment in
          guard let time = segment.time, let duration = segment.duration else { return false }
          let start = (Double(time) - Double(offset)) / Double(timescale)
          return !window.holds(start: start, duration: Double(duration) / Double(timescale))
        }
      }
      return listing
    }
    guard let duration = template.duration, duration > 0 else {
      throw MPDError(
        .missingAttribute, at: path.description + "/SegmentTemplate",
        "There is neither a duration nor a SegmentTimeline.")
    }
    guard let range = window.indices(duration: Double(duration) / Double(timescale)) else {
      throw MPDError(
        .missingAttribute, at: "MPD",
        "availabilityStartTime is missing, so which segments of a live SegmentTemplate are"
          + " available is not known.")
    }
    let first = max(range.lowerBound, range.upperBound - maximumSegmentCount)
    guard first < range.upperBound else {
      template.timeline = []
      return try segments(for: path, in: mpd, replacing: template, manifestURL: manifestURL)
    }
    let (span, o1) = UInt64(first).multipliedReportingOverflow(by: duration)
    let offset = template.presentationTimeOffset ?? 0
    let (start, o2) = Int64(clamping: span).addingReportingOverflow(offset)
    guard !(o1 || o2), start >= 0 else {
      throw MPDError(
        .malformedValue, at: path.description + "/SegmentTemplate",
        "Segment times or numbers overflow.")
    }
    template.startNumber = (template.startNumber ?? 1) + UInt64(first)
    template.timeline = [
      SegmentTimelineEntry(
        time: UInt64(start), duration: duration, repeatCount: range.upperBound - first - 1)
    ]
    return try segments(for: path, in: mpd, replacing: template, manifestURL: manifestURL)
  }

  /// The listing of `path` with its template replaced by `template`.
  private func segments(
    for path: RepresentationPath, in mpd: MPD, replacing template: SegmentTemplate,
    manifestURL: URL
  ) throws -> RepresentationSegments {
    var copy = mpd
    copy.replaceTemplate(at: path, with: template)
    return try segments(for: path, in: copy, manifestURL: manifestURL)
  }
}

extension MPD {
  /// The `SegmentTemplate` of the Representation at `path`, inherited from the
  /// AdaptationSet and the Period, when its segment information is a template.
  func mergedTemplate(at path: RepresentationPath) -> SegmentTemplate? {
    guard let representation = representation(at: path) else { return nil }
    let period = periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    let levels = [representation.segmentInfo, set.segmentInfo, period.segmentInfo]
    guard let own = levels.first(where: { !$0.isEmpty }), own.template != nil else { return nil }
    var result: SegmentTemplate?
    for case let template? in levels.map(\.template) {
      result = result.map { $0.inheriting(from: template) } ?? template
    }
    return result
  }

  /// Puts `template`, complete, on the Representation at `path`, so nothing is inherited.
  mutating func replaceTemplate(at path: RepresentationPath, with template: SegmentTemplate) {
    periods[path.period].adaptationSets[path.adaptationSet].representations[path.representation]
      .segmentInfo = SegmentInformation(template: template)
  }
}
