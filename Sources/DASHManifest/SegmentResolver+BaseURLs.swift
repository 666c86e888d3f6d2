import Foundation

/// One alternative among the `BaseURL`s a Representation inherits: which `BaseURL` is taken
/// at each level (the MPD, the Period, the AdaptationSet, the Representation). The same
/// content at another place, such as another CDN (ISO/IEC 23009-1 §5.6.5).
public struct BaseURLChoice: Sendable, Hashable {
  /// The index of the `BaseURL` taken at each of the four levels, outermost first; 0 at a
  /// level that has none.
  public var indices: [Int]

  /// Creates a choice from the index taken at each level, outermost first.
  public init(indices: [Int]) { self.indices = indices }

  /// The first `BaseURL` at every level: what ``SegmentResolver`` uses by default.
  public static let first = BaseURLChoice(indices: [0, 0, 0, 0])
}

extension SegmentResolver {
  /// The most alternatives ``baseURLChoices(for:in:)`` lists: a manifest with many `BaseURL`s
  /// at each level would otherwise multiply them.
  public static let maximumBaseURLChoices = 8

  /// The alternatives for the Representation at `path`, best first: at each level with
  /// several `BaseURL`s, lower `dvb:priority` first (absent is 1, as DVB-DASH says), document
  /// order among equals; the outer level decides first. `dvb:weight` is not used: equal
  /// priorities are tried in document order, not spread by weight. At most
  /// ``maximumBaseURLChoices``; one (``BaseURLChoice/first`` when nothing is ranked) when
  /// there are no alternatives; empty when there is no such Representation.
  public func baseURLChoices(for path: RepresentationPath, in mpd: MPD) -> [BaseURLChoice] {
    guard let levels = Self.baseURLLevels(for: path, in: mpd) else { return [] }
    let ranked: [[Int]] = levels.map { elements in
      guard !elements.isEmpty else { return [0] }
      return elements.indices.sorted {
        (elements[$0].priority ?? BaseURL.defaultPriority, $0)
          < (elements[$1].priority ?? BaseURL.defaultPriority, $1)
      }
    }
    // The product of the levels in lexicographic order, stopped at the bound: never more
    // than that many are built, however many `BaseURL`s each level has.
    var choices: [BaseURLChoice] = []
    var position = [Int](repeating: 0, count: ranked.count)
    while choices.count < Self.maximumBaseURLChoices {
      choices.append(BaseURLChoice(indices: position.enumerated().map { ranked[$0][$1] }))
      var level = ranked.count - 1
      while level >= 0 {
        position[level] += 1
        if position[level] < ranked[level].count { break }
        position[level] = 0
        level -= 1
      }
      if level < 0 { break }
    }
    return choices
  }

  /// The segments of the Representation at `path` under `choice` of its `BaseURL`s: the same
  /// listing as ``segments(for:in:manifestURL:)``, each URL resolved against the chosen ones.
  ///
  /// - Throws: `MPDError`, as ``segments(for:in:manifestURL:)`` does.
  public func segments(
    for path: RepresentationPath, in mpd: MPD, manifestURL: URL, choice: BaseURLChoice
  ) throws -> RepresentationSegments {
    try segments(for: path, in: Self.choosing(choice, for: path, in: mpd), manifestURL: manifestURL)
  }

  /// The segments of the live Representation at `path` available at `now` under `choice`
  /// of its `BaseURL`s: the same listing as ``availableSegments(for:in:manifestURL:at:)``,
  /// each URL resolved against the chosen ones.
  ///
  /// - Throws: `MPDError`, as ``availableSegments(for:in:manifestURL:at:)`` does.
  public func availableSegments(
    for path: RepresentationPath, in mpd: MPD, manifestURL: URL, at now: Date,
    choice: BaseURLChoice
  ) throws -> RepresentationSegments {
    try availableSegments(
      for: path, in: Self.choosing(choice, for: path, in: mpd), manifestURL: manifestURL, at: now)
  }

  /// The base URL of the Representation at `path` under `choice` (see
  /// ``baseURL(for:in:manifestURL:)``).
  ///
  /// - Throws: `MPDError` (`invalidURL`) for a `BaseURL` that does not parse.
  public func baseURL(
    for path: RepresentationPath, in mpd: MPD, manifestURL: URL, choice: BaseURLChoice
  ) throws -> URL {
    try baseURL(for: path, in: Self.choosing(choice, for: path, in: mpd), manifestURL: manifestURL)
  }

  /// The `BaseURL`s of the four levels above and at `path`, outermost first.
  private static func baseURLLevels(for path: RepresentationPath, in mpd: MPD) -> [[BaseURL]]? {
    guard let representation = mpd.representation(at: path) else { return nil }
    let period = mpd.periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    return [
      mpd.baseURLElements, period.baseURLElements, set.baseURLElements,
      representation.baseURLElements,
    ]
  }

  /// `mpd` with the `BaseURL` of `choice` first at each level above `path` (an index out of
  /// range leaves its level as it is).
  private static func choosing(_ choice: BaseURLChoice, for path: RepresentationPath, in mpd: MPD)
    -> MPD
  {
    guard mpd.representation(at: path) != nil, choice.indices.count == 4 else { return mpd }
    func first(_ elements: [BaseURL], _ index: Int) -> [BaseURL] {
      guard elements.indices.contains(index), index > 0 else { return elements }
      var reordered = elements
      reordered.swapAt(0, index)
      return reordered
    }
    var copy = mpd
    let (p, a, r) = (path.period, path.adaptationSet, path.representation)
    copy.baseURLElements = first(mpd.baseURLElements, choice.indices[0])
    copy.periods[p].baseURLElements = first(mpd.periods[p].baseURLElements, choice.indices[1])
    copy.periods[p].adaptationSets[a].baseURLElements = first(
      mpd.periods[p].adaptationSets[a].baseURLElements, choice.indices[2])
    copy.periods[p].adaptationSets[a].representations[r].baseURLElements = first(
      mpd.periods[p].adaptationSets[a].representations[r].baseURLElements, choice.indices[3])
    return copy
  }
}
