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
      presentationTimeOffset: try element.unsigned("presentationTimeOffset"),
      indexRange: try element.byteRange("indexRange"),
      initialization: try element.child("Initialization").map(initialization))
  }

  private static func segmentList(_ element: Located) throws -> SegmentList {
    SegmentList(
      timescale: try timescale(element), duration: try positiveDuration(element),
      startNumber: try element.unsigned("startNumber"),
      presentationTimeOffset: try element.unsigned("presentationTimeOffset"),
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
    let initialization = try template(element, "initialization", forbidding: [.number, .time])
    let index = try template(element, "index", forbidding: [])
    return SegmentTemplate(
      media: media?.text, initializationTemplate: initialization?.text, index: index?.text,
      timescale: try timescale(element), duration: try positiveDuration(element),
      startNumber: try element.unsigned("startNumber"),
      presentationTimeOffset: try element.unsigned("presentationTimeOffset"),
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
      guard duration > 0 else {
        throw MPDError(.malformedValue, at: entry.path, "d is 0; a segment must last.")
      }
      let repeatCount = try entry.value("r", "a whole number, or -1") { text -> Int? in
        guard let value = Int(text), value >= -1 else { return nil }
        return value
      }
      return SegmentTimelineEntry(
        time: try entry.unsigned("t"), duration: duration, repeatCount: repeatCount ?? 0)
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
