import Foundation

/// Lists what to fetch for a Representation: its initialization section and its media
/// segments, as absolute URLs with byte ranges where the manifest gives them.
///
/// Segment information is inherited from the AdaptationSet and the Period (ISO/IEC 23009-1
/// §5.3.9.1), `BaseURL`s are resolved at every level against the manifest's URL (§5.6), and
/// the count is bounded: a manifest that would list more than `maximumSegmentCount`
/// segments (a 1-second template over 100 years) is refused before anything is allocated.
///
/// URLs are resolved, not vetted: a downloader still checks their scheme.
///
/// ```swift
/// let resolver = SegmentResolver()
/// for path in mpd.representationPaths {
///   let listing = try resolver.segments(for: path, in: mpd, manifestURL: url)
///   print(listing.initialization?.url, listing.segments.count)
/// }
/// ```
public struct SegmentResolver: Sendable {
  /// The most segments one Representation may have.
  public var maximumSegmentCount: Int

  /// Creates a resolver; the default bound allows 2-second segments for over 100 hours.
  public init(maximumSegmentCount: Int = 200_000) {
    self.maximumSegmentCount = maximumSegmentCount
  }

  /// The segments of the Representation at `path`.
  ///
  /// - Parameters:
  ///   - path: Which Representation.
  ///   - mpd: The manifest.
  ///   - manifestURL: Where the manifest was fetched from: the base of every relative URL.
  /// - Throws: `MPDError`: `invalidURL`, `missingAttribute` (a template without `media`, or
  ///   with neither `duration` nor a timeline), `unsupported` (a Period whose duration is
  ///   unknown where it is needed), `tooManySegments`, `malformedValue` (times that overflow).
  public func segments(for path: RepresentationPath, in mpd: MPD, manifestURL: URL) throws
    -> RepresentationSegments
  {
    guard let representation = mpd.representation(at: path) else {
      throw MPDError(.missingAttribute, at: path.description, "There is no such Representation.")
    }
    let period = mpd.periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    let context = Context(
      path: path.description, representation: representation,
      baseURL: try baseURL(for: path, in: mpd, manifestURL: manifestURL),
      periodDuration: mpd.periodDuration(at: path.period), limit: maximumSegmentCount)
    let levels = [representation.segmentInfo, set.segmentInfo, period.segmentInfo]
    guard let own = levels.first(where: { !$0.isEmpty }) else {
      return RepresentationSegments(segments: [SegmentReference(url: context.baseURL)])
    }
    if own.template != nil {
      let template = merged(levels.map(\.template)) { $0.inheriting(from: $1) }
      return try context.segments(template!)
    }
    if own.list != nil {
      let list = merged(levels.map(\.list)) { $0.inheriting(from: $1) }
      return try context.segments(list!)
    }
    let base = merged(levels.map(\.base)) { $0.inheriting(from: $1) }
    return try context.segments(base!)
  }

  /// The Representation's base URL: the manifest's URL with the first `BaseURL` of the MPD,
  /// the Period, the AdaptationSet and the Representation resolved in turn (RFC 3986 §5).
  ///
  /// - Throws: `MPDError` (`invalidURL`) for a `BaseURL` that does not parse.
  public func baseURL(for path: RepresentationPath, in mpd: MPD, manifestURL: URL) throws -> URL {
    guard let representation = mpd.representation(at: path) else {
      throw MPDError(.missingAttribute, at: path.description, "There is no such Representation.")
    }
    let period = mpd.periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    var url = manifestURL
    let levels = [
      ("MPD", mpd.baseURLs), ("MPD/Period[\(path.period + 1)]", period.baseURLs),
      (
        "MPD/Period[\(path.period + 1)]/AdaptationSet[\(path.adaptationSet + 1)]",
        set.baseURLs
      ),
      (path.description, representation.baseURLs),
    ]
    for (where_, urls) in levels {
      guard let text = urls.first else { continue }
      url = try Self.resolve(text, against: url, at: "\(where_)/BaseURL")
    }
    return url
  }

  /// `text` resolved against `base`.
  static func resolve(_ text: String, against base: URL, at path: String) throws -> URL {
    guard let url = URL(string: text, relativeTo: base)?.absoluteURL, url.scheme != nil else {
      throw MPDError(.invalidURL, at: path, "'\(text)' is not a URL.")
    }
    return url
  }

  /// The first non-nil value, inheriting from each later non-nil one in turn.
  private func merged<T>(_ values: [T?], _ inherit: (T, T) -> T) -> T? {
    var result: T? = nil
    for case let value? in values {
      result = result.map { inherit($0, value) } ?? value
    }
    return result
  }
}
