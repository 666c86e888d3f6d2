import Foundation

/// How far a listing would grow, worked out from the manifest alone, before anything is
/// allocated.
extension SegmentResolver.Context {
  /// The most a `sidx` box can reference: its `reference_count` is 16 bits.
  static let maximumIndexReferences = 65_535
  /// Bytes one `sidx` reference takes.
  static let indexReferenceBytes: UInt64 = 12

  /// What listing `source` gives at most.
  ///
  /// A resolved URL is never longer than the base URL and the reference together (RFC 3986
  /// §5.2 merges a path and removes dot segments), plus the `/` an empty path gets.
  ///
  /// - Throws: `MPDError` as the listing would, and `tooManySegments` or `urlsTooLarge` past
  ///   the bounds.
  func expansion(_ source: SegmentResolver.Source) throws -> SegmentResolver.Expansion {
    let base = baseURL.absoluteString.utf8.count + 1
    var bytes = Bytes()
    let count: Int
    let element: String
    switch source {
    case .whole:
      element = "BaseURL"
      count = 1
      bytes.add(base)
    case .template(let template):
      element = "SegmentTemplate"
      guard let mediaText = template.media else {
        throw MPDError(.missingAttribute, at: path + "/" + element, "media is missing.")
      }
      let media = try URLTemplate(mediaText)
      try check(media, name: "media", element: element)
      count = try segmentCount(template, element: element)
      bytes.add(count, times: base + media.longestExpansion(values()))
      if let text = template.initializationTemplate {
        let initialization = try URLTemplate(text)
        try check(initialization, name: "initialization", element: element)
        bytes.add(base + initialization.longestExpansion(values()))
      } else {
        bytes.add(base + (template.initialization?.sourceURL?.utf8.count ?? 0))
      }
    case .list(let list):
      element = "SegmentList"
      count = list.segmentURLs.count
      guard count <= limit else { throw tooMany(element, "\(count)") }
      for url in list.segmentURLs { bytes.add(base + (url.media?.utf8.count ?? 0)) }
      bytes.add(base + (list.initialization?.sourceURL?.utf8.count ?? 0))
    case .base(let segmentBase):
      element = "SegmentBase"
      // Every segment of an index shares the one URL.
      if let range = segmentBase.indexRange {
        let references = (range.length ?? UInt64.max) / Self.indexReferenceBytes
        count = Int(min(references, UInt64(Self.maximumIndexReferences)))
      } else {
        count = 1
      }
      bytes.add(base + (segmentBase.initialization?.sourceURL?.utf8.count ?? 0))
    }
    guard let total = bytes.total, total <= urlLimit else {
      let about = bytes.total.map { "about \(SegmentResolver.mebibytes($0)) MiB" } ?? "exabytes"
      throw MPDError(
        .urlsTooLarge, at: path + "/" + element,
        "Its segment URLs would take \(about); at most "
          + "\(SegmentResolver.mebibytes(urlLimit)) MiB of segment URLs are allowed.")
    }
    return SegmentResolver.Expansion(segmentCount: count, urlBytes: total)
  }

  /// The number of media segments of `template`, zero-length ones included.
  private func segmentCount(_ template: SegmentTemplate, element: String) throws -> Int {
    let timescale = template.timescale ?? 1
    if let timeline = template.timeline {
      return try plan(
        timeline, timescale: timescale, offset: template.presentationTimeOffset ?? 0,
        element: element
      ).total
    }
    guard let duration = template.duration else {
      throw MPDError(
        .missingAttribute, at: path + "/" + element,
        "There is neither a duration nor a SegmentTimeline.")
    }
    return try count(duration: duration, timescale: timescale, element: element)
  }

  /// Refuses a template this Representation cannot fill in: `$SubNumber$`, and `$Bandwidth$`
  /// without `@bandwidth`.
  func check(_ template: URLTemplate, name: String, element: String) throws {
    if template.identifiers.contains(.subNumber) {
      throw MPDError(
        .unsupported, at: path + "/" + element,
        "\(name) '\(template.text.prefix(200))' uses $SubNumber$ (the parts of a segment "
          + "sequence, S@k, for low-latency streams); players do not agree on how the parts "
          + "are numbered (dash.js counts from 0), so which resources to fetch is not known.")
    }
    if template.identifiers.contains(.bandwidth), representation.bandwidth == nil {
      throw MPDError(
        .missingAttribute, at: path,
        "bandwidth is missing, and the \(element) \(name) '\(template.text.prefix(200))' uses "
          + "$Bandwidth$, so its URLs cannot be made.")
    }
  }
}

/// A sum of byte counts that saturates to nil instead of overflowing.
private struct Bytes {
  private(set) var total: Int? = 0

  mutating func add(_ bytes: Int) { add(1, times: bytes) }

  mutating func add(_ count: Int, times bytes: Int) {
    guard let sum = total else { return }
    let (product, o1) = count.multipliedReportingOverflow(by: bytes)
    let (next, o2) = sum.addingReportingOverflow(product)
    total = o1 || o2 ? nil : next
  }
}
