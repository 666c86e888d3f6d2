import Foundation

/// Lists what to fetch for a Representation: its initialization section and its media
/// segments, as absolute URLs with byte ranges where the manifest gives them.
///
/// Segment information is inherited from the AdaptationSet and the Period (ISO/IEC 23009-1
/// §5.3.9.1), `BaseURL`s are resolved at every level against the manifest's URL (§5.6), and
/// what a listing may grow to is bounded before anything is allocated: at most
/// `maximumSegmentCount` segments (a 1-second template over 100 years is refused) and at most
/// `maximumURLBytes` of URLs (a 20,000-character template or `@id` repeated in each of them
/// is). ``expansion(for:in:manifestURL:)`` gives those figures without listing, so a caller
/// that lists many Representations can bound them all together (``SegmentBudget``).
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
  /// What listing a Representation gives at most, worked out without listing it.
  public struct Expansion: Sendable, Equatable {
    /// Media segments (for a `SegmentBase` with an `indexRange`, as many as its index can
    /// hold: 12 bytes a reference).
    public var segmentCount: Int
    /// Bytes of the resolved URLs of the segments and the initialization section, an upper
    /// bound.
    public var urlBytes: Int

    /// Creates an expansion.
    public init(segmentCount: Int, urlBytes: Int) {
      self.segmentCount = segmentCount
      self.urlBytes = urlBytes
    }
  }

  /// The most segments one Representation may have.
  public var maximumSegmentCount: Int
  /// The most bytes the URLs of one Representation's listing may take.
  public var maximumURLBytes: Int

  /// Creates a resolver; the default bounds allow 2-second segments for over 100 hours, and
  /// URLs of 300 bytes on average at that count.
  public init(maximumSegmentCount: Int = 200_000, maximumURLBytes: Int = 64 << 20) {
    self.maximumSegmentCount = maximumSegmentCount
    self.maximumURLBytes = maximumURLBytes
  }

  /// The segments of the Representation at `path`.
  ///
  /// - Parameters:
  ///   - path: Which Representation.
  ///   - mpd: The manifest.
  ///   - manifestURL: Where the manifest was fetched from: the base of every relative URL.
  /// - Throws: `MPDError`: `invalidURL`, `missingAttribute` (a template without `media`, or
  ///   with neither `duration` nor a timeline; `$Bandwidth$` without `@bandwidth`),
  ///   `unsupported` (a Period whose duration is unknown where it is needed, `$SubNumber$`),
  ///   `tooManySegments`, `urlsTooLarge`, `malformedValue` (times that overflow).
  public func segments(for path: RepresentationPath, in mpd: MPD, manifestURL: URL) throws
    -> RepresentationSegments
  {
    let (context, source) = try prepare(path, mpd, manifestURL)
    _ = try context.expansion(source)  // refuses past the bounds before anything is listed
    switch source {
    case .whole: return RepresentationSegments(segments: [SegmentReference(url: context.baseURL)])
    case .template(let template): return try context.segments(template)
    case .list(let list): return try context.segments(list)
    case .base(let base): return try context.segments(base)
    }
  }

  /// What listing the Representation at `path` gives at most, without listing it.
  ///
  /// - Throws: `MPDError`, as ``segments(for:in:manifestURL:)`` does for what it can tell
  ///   without listing: the bounds included.
  public func expansion(for path: RepresentationPath, in mpd: MPD, manifestURL: URL) throws
    -> Expansion
  {
    let (context, source) = try prepare(path, mpd, manifestURL)
    return try context.expansion(source)
  }

  /// Where the segment information of a Representation comes from.
  enum Source {
    /// No segment information: the base URL is the one resource.
    case whole
    case template(SegmentTemplate)
    case list(SegmentList)
    case base(SegmentBase)
  }

  /// The context and the merged segment information of the Representation at `path`.
  private func prepare(_ path: RepresentationPath, _ mpd: MPD, _ manifestURL: URL) throws
    -> (Context, Source)
  {
    guard let representation = mpd.representation(at: path) else {
      throw MPDError(.missingAttribute, at: path.description, "There is no such Representation.")
    }
    let period = mpd.periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    let context = Context(
      path: path.description, representation: representation,
      baseURL: try baseURL(for: path, in: mpd, manifestURL: manifestURL),
      periodDuration: mpd.periodDuration(at: path.period), limit: maximumSegmentCount,
      urlLimit: maximumURLBytes)
    let levels = [representation.segmentInfo, set.segmentInfo, period.segmentInfo]
    guard let own = levels.first(where: { !$0.isEmpty }) else { return (context, .whole) }
    if own.template != nil {
      return (context, .template(merged(levels.map(\.template)) { $0.inheriting(from: $1) }!))
    }
    if own.list != nil {
      return (context, .list(merged(levels.map(\.list)) { $0.inheriting(from: $1) }!))
    }
    return (context, .base(merged(levels.map(\.base)) { $0.inheriting(from: $1) }!))
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

  /// `bytes` in MiB, rounded up, for messages.
  static func mebibytes(_ bytes: Int) -> Int {
    bytes / (1 << 20) + (bytes % (1 << 20) == 0 ? 0 : 1)
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
