/// The segment information elements: `SegmentBase`, `SegmentList`, `SegmentTemplate`.
extension MPDParser {
  static func segmentInformation(_ element: Located) throws -> SegmentInformation {
    SegmentInformation(
      base: try element.child("SegmentBase").map(segmentBase),
      list: try element.child("SegmentList").map(segmentList),
      template: try element.child("SegmentTemplate").map(segmentTemplate))
  }

  private static func segmentBase(_ element: Located) throws -> SegmentBase {
    SegmentBase(
      timescale: try timescale(element),
      presentationTimeOffset: try presentationTimeOffset(element),
      indexRange: try element.byteRange("indexRange"),
      initialization: try element.child("Initialization").map(initialization))
  }

  private static func segmentList(_ element: Located) throws -> SegmentList {
    SegmentList(
      timescale: try timescale(element), duration: try positiveDuration(element),
      startNumber: try element.unsigned("startNumber"),
      presentationTimeOffset: try presentationTimeOffset(element),
      initialization: try element.child("Initialization").map(initialization),
      timeline: try element.child("SegmentTimeline").map(timeline),
      segmentURLs: try element.children("SegmentURL").map { url in
        SegmentURL(media: url.string("media"), mediaRange: try url.byteRange("mediaRange"))
      })
  }

  private static func segmentTemplate(_ element: Located) throws -> SegmentTemplate {
    let media = try template(element, "media", forbidding: [])
    if let media, media.identifiers.isSuperset(of: [.number, .time]) {
      throw MPDError(
        .invalidTemplate, at: element.path,
        "media '\(media.text)' uses both $Number$ and $Time$, which the standard forbids.")
    }
    let initialization = try template(
      element, "initialization", forbidding: [.number, .time, .subNumber])
    let index = try template(element, "index", forbidding: [])
    return SegmentTemplate(
      media: media?.text, initializationTemplate: initialization?.text, index: index?.text,
      timescale: try timescale(element), duration: try positiveDuration(element),
      startNumber: try element.unsigned("startNumber"),
      presentationTimeOffset: try presentationTimeOffset(element),
      initialization: try element.child("Initialization").map(Self.initialization),
      timeline: try element.child("SegmentTimeline").map(timeline))
  }

  /// A template attribute, checked; `forbidding` lists identifiers it may not use.
  private static func template(
    _ element: Located, _ name: String, forbidding: Set<URLTemplate.Identifier>
  ) throws -> URLTemplate? {
    guard let text = element.string(name) else { return nil }
    let template: URLTemplate
    do {
      template = try URLTemplate(text)
    } catch let error as MPDError {
      throw MPDError(error.kind, at: element.path, "\(name): \(error.message)")
    }
    if let used = template.identifiers.intersection(forbidding).first {
      throw MPDError(
        .invalidTemplate, at: element.path,
        "\(name) '\(text)' uses $\(used.rawValue)$, which only media templates may use.")
    }
    return template
  }

  private static func initialization(_ element: Located) throws -> Initialization {
    Initialization(sourceURL: element.string("sourceURL"), range: try element.byteRange("range"))
  }

  private static func timeline(_ element: Located) throws -> [SegmentTimelineEntry] {
    try element.children("S").map { entry in
      guard let duration = try entry.unsigned("d") else {
        throw MPDError(.missingAttribute, at: entry.path, "d is missing.")
      }
      let repeatCount = try entry.value("r", "a whole number, or -1") { text -> Int? in
        guard let value = Int(text), value >= -1 else { return nil }
        return value
      }
      // d="0" is a segment that lasts no time: listed without being fetched; repeated to the
      // end of the Period it would never end.
      guard duration > 0 || repeatCount != -1 else {
        throw MPDError(
          .malformedValue, at: entry.path, "d is 0 and r is -1: the entry would repeat without end."
        )
      }
      return SegmentTimelineEntry(
        time: try entry.unsigned("t"), duration: duration, repeatCount: repeatCount ?? 0)
    }
  }

  /// `@presentationTimeOffset`: a whole number, which may be negative (dash.js's own tests
  /// shift audio with `-130000`; the schema says unsigned, players accept it).
  private static func presentationTimeOffset(_ element: Located) throws -> Int64? {
    try element.value("presentationTimeOffset", "a whole number") { text in
      let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
      return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit) ? Int64(text) : nil
    }
  }

  /// `@timescale`, which must not be 0.
  private static func timescale(_ element: Located) throws -> UInt64? {
    let value = try element.unsigned("timescale")
    guard value != 0 else {
      throw MPDError(.malformedValue, at: element.path, "timescale is 0.")
    }
    return value
  }

  /// `@duration` of a list or template, which must not be 0.
  private static func positiveDuration(_ element: Located) throws -> UInt64? {
    let value = try element.unsigned("duration")
    guard value != 0 else {
      throw MPDError(.malformedValue, at: element.path, "duration is 0; a segment must last.")
    }
    return value
  }
}
