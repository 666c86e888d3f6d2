extension MPD {
  /// The `ContentSteering` element of an MPD (DASH-IF CTS 001 "Content Steering for DASH",
  /// ISO/IEC 23009-1 5th edition §5.8.5.10): where a client asks which service location (a
  /// CDN, named by `BaseURL@serviceLocation`) to use, and which to use before it has asked.
  ///
  /// The steering server answers a JSON manifest whose `SERVICE-LOCATION-PRIORITY` lists
  /// the service locations best first; ``MPD/steered(by:)`` gives the MPD as a client that
  /// follows such a list sees it.
  public struct ContentSteering: Sendable, Equatable {
    /// The element's text, as written (trimmed): the steering server's URL, absolute or
    /// relative to the MPD's.
    public var serverURL: String
    /// `@defaultServiceLocation`, as written: the service location(s) to use before the
    /// steering server has answered, whitespace-separated; nil when absent.
    public var defaultServiceLocation: String?
    /// `@queryBeforeStart`: whether the steering server is asked before the first segment
    /// is fetched (false, the default: the first segments come from the default location).
    public var queryBeforeStart: Bool
    /// `@proxyServerURL`, as written (absolute or relative to the MPD's URL); nil when
    /// absent. A client sends its steering requests there, the steering server's URL as
    /// the `url` query parameter.
    public var proxyServerURL: String?

    /// Creates the element's value.
    public init(
      serverURL: String, defaultServiceLocation: String? = nil, queryBeforeStart: Bool = false,
      proxyServerURL: String? = nil
    ) {
      self.serverURL = serverURL
      self.defaultServiceLocation = defaultServiceLocation
      self.queryBeforeStart = queryBeforeStart
      self.proxyServerURL = proxyServerURL
    }

    /// The names in ``defaultServiceLocation``, in order, without repeats.
    public var defaultServiceLocations: [String] {
      var names: [String] = []
      for name in (defaultServiceLocation ?? "").split(whereSeparator: \.isWhitespace) {
        if !names.contains(String(name)) { names.append(String(name)) }
      }
      return names
    }

    /// The longest steering server URL the parser keeps: a longer one is ignored.
    public static let maximumURLLength = 8192
  }

  /// The MPD as a client steered by `priority` (a `SERVICE-LOCATION-PRIORITY`, best first)
  /// sees it: at every level with `BaseURL`s, those whose `@serviceLocation` `priority`
  /// names come first, in its order; the others follow in the order `dvb:priority` gives
  /// them (document order among equals), as a last resort. Their `dvb:priority` is cleared,
  /// so ``SegmentResolver/baseURLChoices(for:in:)`` keeps this order. An empty `priority`
  /// changes nothing.
  public func steered(by priority: [String]) -> MPD {
    guard !priority.isEmpty else { return self }
    func reorder(_ elements: [BaseURL]) -> [BaseURL] {
      guard elements.count > 1 else { return elements }
      let rank = { (index: Int) -> (Int, Int, Int) in
        let element = elements[index]
        let steered = element.serviceLocation.flatMap { priority.firstIndex(of: $0) }
        return (steered ?? priority.count, element.priority ?? BaseURL.defaultPriority, index)
      }
      return elements.indices.sorted { rank($0) < rank($1) }.map { index in
        var element = elements[index]
        element.priority = nil
        return element
      }
    }
    var copy = self
    copy.baseURLElements = reorder(baseURLElements)
    for p in copy.periods.indices {
      copy.periods[p].baseURLElements = reorder(copy.periods[p].baseURLElements)
      for a in copy.periods[p].adaptationSets.indices {
        var set = copy.periods[p].adaptationSets[a]
        set.baseURLElements = reorder(set.baseURLElements)
        for r in set.representations.indices {
          set.representations[r].baseURLElements = reorder(set.representations[r].baseURLElements)
        }
        copy.periods[p].adaptationSets[a] = set
      }
    }
    return copy
  }
}

extension SegmentResolver {
  /// The service location of `choice` for the Representation at `path`: the
  /// `@serviceLocation` of the innermost `BaseURL` it takes that has one; nil when none has
  /// (or there is no such Representation).
  public func serviceLocation(
    of choice: BaseURLChoice, for path: RepresentationPath, in mpd: MPD
  ) -> String? {
    guard let representation = mpd.representation(at: path), choice.indices.count == 4 else {
      return nil
    }
    let period = mpd.periods[path.period]
    let set = period.adaptationSets[path.adaptationSet]
    let levels = [
      mpd.baseURLElements, period.baseURLElements, set.baseURLElements,
      representation.baseURLElements,
    ]
    for (index, elements) in zip(choice.indices, levels).reversed()
    where elements.indices.contains(index) {
      if let location = elements[index].serviceLocation { return location }
    }
    return nil
  }
}
