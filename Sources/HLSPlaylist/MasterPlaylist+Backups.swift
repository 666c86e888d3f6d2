extension MasterPlaylist {
  /// The content steering pathways in the order a client without a steering manifest tries
  /// them: the tag's `PATHWAY-ID` first (RFC 8216bis §4.4.6.6), then each other pathway in
  /// the order its first variant appears; a variant without `PATHWAY-ID` is on `.`.
  public var pathwayOrder: [String] {
    var order: [String] = []
    if let first = contentSteering?.pathwayID { order.append(first) }
    for variant in variants {
      let pathway = variant.pathwayID ?? ContentSteering.defaultPathwayID
      if !order.contains(pathway) { order.append(pathway) }
    }
    return order
  }

  /// The variants a client chooses among: those on the first pathway of ``pathwayOrder``,
  /// each rendition once (the first of variants that are ``isRedundant(_:with:)`` copies).
  /// The others are its backups (``backups(of:)``).
  public var primaryVariants: [Variant] {
    let pathway = pathwayOrder.first
    var result: [Variant] = []
    for variant in variants
    where (variant.pathwayID ?? ContentSteering.defaultPathwayID) == pathway
      && !result.contains(where: { Self.isRedundant($0, with: variant) })
    {
      result.append(variant)
    }
    return result
  }

  /// The other copies of `variant`: variants with the same `BANDWIDTH`, `RESOLUTION` and
  /// `CODECS` and another URI (RFC 8216 §6.2.3's redundant streams, and the same rendition on
  /// other content steering pathways), in the order they are tried: by ``pathwayOrder``,
  /// then as listed.
  public func backups(of variant: Variant) -> [Variant] {
    let order = pathwayOrder
    let rank = { (candidate: Variant) -> Int in
      order.firstIndex(of: candidate.pathwayID ?? ContentSteering.defaultPathwayID) ?? order.count
    }
    let copies = variants.enumerated().filter { _, candidate in
      Self.isRedundant(candidate, with: variant) && candidate.uri != variant.uri
    }
    return copies.sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
      .map(\.element)
  }

  /// Whether `a` and `b` describe the same rendition of the content: equal `BANDWIDTH`,
  /// `RESOLUTION` and `CODECS`.
  public static func isRedundant(_ a: Variant, with b: Variant) -> Bool {
    a.bandwidth == b.bandwidth && a.resolution == b.resolution && a.codecs == b.codecs
  }
}

extension MasterPlaylist {
  /// This playlist as a steering manifest's `PATHWAY-PRIORITY` (RFC 8216bis §7.2) orders
  /// it: the first listed pathway that has a variant becomes the tag's `PATHWAY-ID`, and the
  /// variants are reordered by the list (a stable sort; pathways it does not name keep their
  /// place after the named ones), so ``pathwayOrder``, ``primaryVariants`` and
  /// ``backups(of:)`` follow it. Unchanged when no listed pathway has a variant.
  public func steered(by priority: [String]) -> MasterPlaylist {
    let present = Set(variants.map { $0.pathwayID ?? ContentSteering.defaultPathwayID })
    let listed = priority.filter { present.contains($0) }
    guard let first = listed.first else { return self }
    var result = self
    var steering = contentSteering ?? ContentSteering(serverURI: "")
    steering.pathwayID = first
    result.contentSteering = contentSteering == nil ? nil : steering
    let rank = { (variant: Variant) -> Int in
      listed.firstIndex(of: variant.pathwayID ?? ContentSteering.defaultPathwayID) ?? listed.count
    }
    result.variants = variants.enumerated()
      .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
      .map(\.element)
    return result
  }
}
