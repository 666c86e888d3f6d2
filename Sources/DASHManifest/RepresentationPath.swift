/// Where a Representation is in an MPD: 0-based indices of its Period, AdaptationSet and
/// itself.
public struct RepresentationPath: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// The index of the Period in `MPD.periods`.
  public var period: Int
  /// The index of the AdaptationSet in `Period.adaptationSets`.
  public var adaptationSet: Int
  /// The index of the Representation in `AdaptationSet.representations`.
  public var representation: Int

  /// Creates a path from 0-based indices.
  public init(period: Int, adaptationSet: Int, representation: Int) {
    self.period = period
    self.adaptationSet = adaptationSet
    self.representation = representation
  }

  /// The element path as errors give it: `MPD/Period[1]/AdaptationSet[1]/Representation[1]`.
  public var description: String {
    "MPD/Period[\(period + 1)]/AdaptationSet[\(adaptationSet + 1)]/Representation[\(representation + 1)]"
  }
}

extension MPD {
  /// Every Representation's path, in document order.
  public var representationPaths: [RepresentationPath] {
    periods.enumerated().flatMap { p, period in
      period.adaptationSets.enumerated().flatMap { a, set in
        set.representations.indices.map {
          RepresentationPath(period: p, adaptationSet: a, representation: $0)
        }
      }
    }
  }

  /// The Representation at `path`, or nil when there is none.
  public func representation(at path: RepresentationPath) -> Representation? {
    guard periods.indices.contains(path.period) else { return nil }
    let sets = periods[path.period].adaptationSets
    guard sets.indices.contains(path.adaptationSet) else { return nil }
    let representations = sets[path.adaptationSet].representations
    guard representations.indices.contains(path.representation) else { return nil }
    return representations[path.representation]
  }
}
