import Foundation

/// Listing the segments of a template, a list or a base.
extension SegmentResolver.Context {
  /// The segments a `SegmentTemplate` makes (§5.3.9.4). A timeline entry with `d="0"` names
  /// a segment that lasts no time: no player asks for it (they find segments by time), but it
  /// takes its `$Number$` (dash.js counts it), so it is skipped and the numbers after it stay.
  func segments(_ template: SegmentTemplate) throws -> RepresentationSegments {
    let element = "SegmentTemplate"
    guard let mediaText = template.media else {
      throw MPDError(.missingAttribute, at: path + "/" + element, "media is missing.")
    }
    let media = try URLTemplate(mediaText)
    try check(media, name: "media", element: element)
    let timescale = template.timescale ?? 1
    let startNumber = template.startNumber ?? 1
    let offset = template.presentationTimeOffset ?? 0
    var initialization: SegmentReference?
    if let text = template.initializationTemplate {
      let initializationTemplate = try URLTemplate(text)
      try check(initializationTemplate, name: "initialization", element: element)
      let url = initializationTemplate.expand(values())
      initialization = SegmentReference(
        url: try SegmentResolver.resolve(url, against: baseURL, at: path + "/" + element))
    } else {
      initialization = try reference(template.initialization)
    }
    let timing: [(time: UInt64, duration: UInt64)]
    if let timeline = template.timeline {
      timing = try expand(timeline, timescale: timescale, offset: offset, element: element)
    } else {
      guard let duration = template.duration else {
        throw MPDError(
          .missingAttribute, at: path + "/" + element,
          "There is neither a duration nor a SegmentTimeline.")
      }
      let count = try self.count(duration: duration, timescale: timescale, element: element)
      timing = try (0..<count).map { index in
        let (span, overflowed) = UInt64(index).multipliedReportingOverflow(by: duration)
        guard !overflowed else { throw overflow(element) }
        return (try mediaTime(span, after: offset, element: element), duration)
      }
    }
    var segments: [SegmentReference] = []
    segments.reserveCapacity(timing.count)
    for (index, slot) in timing.enumerated() {
      let (number, overflowed) = startNumber.addingReportingOverflow(UInt64(index))
      guard !overflowed else { throw overflow(element) }
      guard slot.duration > 0 else { continue }
      let text = media.expand(values(number: number, time: slot.time))
      segments.append(
        SegmentReference(
          url: try SegmentResolver.resolve(text, against: baseURL, at: path + "/" + element),
          number: number, time: slot.time, duration: slot.duration))
    }
    return RepresentationSegments(
      initialization: initialization, segments: segments, timescale: timescale,
      presentationTimeOffset: offset)
  }

  /// The segments a `SegmentList` names (§5.3.9.3); a `SegmentURL` whose timeline entry
  /// lasts no time is skipped, as for a template.
  func segments(_ list: SegmentList) throws -> RepresentationSegments {
    let element = "SegmentList"
    guard list.segmentURLs.count <= limit else {
      throw tooMany(element, "\(list.segmentURLs.count)")
    }
    let timescale = list.timescale ?? 1
    let startNumber = list.startNumber ?? 1
    let offset = list.presentationTimeOffset ?? 0
    var timing: [(time: UInt64, duration: UInt64)?] = []
    if let timeline = list.timeline {
      timing = try expand(timeline, timescale: timescale, offset: offset, element: element)
    } else if let duration = list.duration {
      timing = list.segmentURLs.indices.map { index in
        let (span, overflowed) = UInt64(index).multipliedReportingOverflow(by: duration)
        return overflowed
          ? nil
          : (try? mediaTime(span, after: offset, element: element)).map {
            ($0, duration)
          }
      }
    }
    var segments: [SegmentReference] = []
    segments.reserveCapacity(list.segmentURLs.count)
    for (index, url) in list.segmentURLs.enumerated() {
      let slot = index < timing.count ? timing[index] : nil
      if let slot, slot.duration == 0 { continue }
      let media = try url.media.map {
        try SegmentResolver.resolve(
          $0, against: baseURL, at: "\(path)/\(element)/SegmentURL[\(index + 1)]")
      }
      segments.append(
        SegmentReference(
          url: media ?? baseURL, byteRange: url.mediaRange,
          number: startNumber.addingReportingOverflow(UInt64(index)).partialValue,
          time: slot?.time, duration: slot?.duration))
    }
    return RepresentationSegments(
      initialization: try reference(list.initialization), segments: segments,
      timescale: timescale, presentationTimeOffset: offset)
  }

  /// The listing of a `SegmentBase` (§5.3.9.2): the index to read, or the whole resource.
  func segments(_ base: SegmentBase) throws -> RepresentationSegments {
    var result = RepresentationSegments(
      initialization: try reference(base.initialization), timescale: base.timescale ?? 1,
      presentationTimeOffset: base.presentationTimeOffset ?? 0)
    if let indexRange = base.indexRange {
      result.index = SegmentReference(url: baseURL, byteRange: indexRange)
    } else {
      result.segments = [SegmentReference(url: baseURL, number: 1)]
    }
    return result
  }

  /// How many segments each entry of a `SegmentTimeline` stands for and where each starts,
  /// counted before anything is allocated.
  struct TimelinePlan {
    var counts: [Int] = []
    var starts: [UInt64] = []
    var total = 0
  }

  /// The plan of `timeline` (§5.3.9.6).
  ///
  /// - Throws: `tooManySegments` past the bound, `malformedValue` for times that overflow or
  ///   a zero duration repeated to the end.
  func plan(
    _ timeline: [SegmentTimelineEntry], timescale: UInt64, offset: Int64, element: String
  ) throws -> TimelinePlan {
    var plan = TimelinePlan()
    var cursor: UInt64 = 0
    for (index, entry) in timeline.enumerated() {
      let start = entry.time ?? cursor
      var count: UInt64
      if entry.repeatCount >= 0 {
        count = UInt64(entry.repeatCount) + 1
      } else {
        guard entry.duration > 0 else {
          throw MPDError(
            .malformedValue, at: "\(path)/\(element)/SegmentTimeline/S[\(index + 1)]",
            "d is 0 and r is -1: the entry would repeat without end.")
        }
        let end =
          try index + 1 < timeline.count
          ? timeline[index + 1].time
            ?? periodEnd(timescale: timescale, offset: offset, element: element)
          : periodEnd(timescale: timescale, offset: offset, element: element)
        let span = end > start ? end - start : 0
        count = span / entry.duration + (span % entry.duration == 0 ? 0 : 1)
      }
      guard count <= UInt64(limit - plan.total) else {
        throw tooMany(element, "more than \(limit)")
      }
      let (span, o1) = count.multipliedReportingOverflow(by: entry.duration)
      let (next, o2) = start.addingReportingOverflow(span)
      guard !(o1 || o2) else { throw overflow(element) }
      plan.total += Int(count)
      plan.counts.append(Int(count))
      plan.starts.append(start)
      cursor = next
    }
    return plan
  }

  /// The start and duration of every segment of a `SegmentTimeline` (§5.3.9.6), zero-length
  /// ones included.
  func expand(
    _ timeline: [SegmentTimelineEntry], timescale: UInt64, offset: Int64, element: String
  ) throws -> [(time: UInt64, duration: UInt64)] {
    let plan = try plan(timeline, timescale: timescale, offset: offset, element: element)
    var result: [(time: UInt64, duration: UInt64)] = []
    result.reserveCapacity(plan.total)
    for (index, entry) in timeline.enumerated() {
      for repeat_ in 0..<plan.counts[index] {
        result.append((plan.starts[index] + UInt64(repeat_) * entry.duration, entry.duration))
      }
    }
    return result
  }
}
