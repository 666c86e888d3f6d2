/// What the transfer picks from a file's description: the URLs to try, in order, and the
/// strongest hashes it can check.
extension MetalinkFile {
  /// The usable URLs, best first: by priority (1 first, those without one last), then those
  /// in `location` (an ISO 3166-1 alpha-2 code, any case) before others of the same priority,
  /// then in document order.
  public func usableURLs(preferring location: String? = nil) -> [MetalinkURL] {
    let preferred = location?.lowercased()
    return urls.enumerated()
      .filter { $0.element.isUsable }
      .sorted { first, second in
        let (a, b) = (first.element, second.element)
        if a.rank != b.rank { return a.rank < b.rank }
        let aHere = preferred != nil && a.location == preferred
        let bHere = preferred != nil && b.location == preferred
        if aHere != bHere { return aHere }
        return first.offset < second.offset
      }
      .map(\.element)
  }

  /// The strongest whole-file digest whose function is in `checkable` (RFC 5854 §4.2.4:
  /// sha-512, then sha-384, sha-256, sha-1, md5), or nil when there is none.
  ///
  /// OfflineKit's transfer computes SHA-256 today and asks with `[.sha256]`.
  public func strongestHash(
    checkable: Set<HashAlgorithm> = Set(HashAlgorithm.allCases)
  ) -> Checksum? {
    Checksum.strongest(in: hashes, checkable: checkable)
  }

  /// The piece hashes of the strongest function in `checkable`, or nil when there are none.
  public func strongestPieces(
    checkable: Set<HashAlgorithm> = Set(HashAlgorithm.allCases)
  ) -> PieceHashes? {
    pieces.filter { checkable.contains($0.algorithm) }.max { $0.algorithm < $1.algorithm }
  }
}
