/// The bound on what one download may expand a manifest to, across every Period and
/// Representation it takes: media segments in all, and bytes of their URLs.
///
/// `SegmentResolver` bounds one Representation; a manifest of a few kilobytes can still name
/// many of them (50 Periods of 199,999 segments each), so a downloader spends each
/// Representation's ``SegmentResolver/Expansion`` here before it lists any of them, and
/// memory stays that of the bound whatever the manifest says.
///
/// ```swift
/// var budget = SegmentBudget()
/// for path in chosen {
///   try budget.spend(resolver.expansion(for: path, in: mpd, manifestURL: url), at: path)
/// }
/// ```
public struct SegmentBudget: Sendable, Equatable {
  /// The most media segments a download may list in all.
  public var maximumSegmentCount: Int
  /// The most bytes the segment URLs of a download may take in all.
  public var maximumURLBytes: Int
  /// What was spent so far: segments.
  public private(set) var segmentCount = 0
  /// What was spent so far: bytes of URLs.
  public private(set) var urlBytes = 0

  /// Creates a budget; the defaults let a whole download list as many segments as one
  /// Representation may (`SegmentResolver`): video and audio of 2-second segments for over 50
  /// hours, with URLs of 300 bytes on average. Planning that many takes about 220 MiB.
  public init(maximumSegmentCount: Int = 200_000, maximumURLBytes: Int = 64 << 20) {
    self.maximumSegmentCount = maximumSegmentCount
    self.maximumURLBytes = maximumURLBytes
  }

  /// Adds what the Representation at `path` expands to.
  ///
  /// - Throws: `MPDError` at `path`: `tooManySegments` or `urlsTooLarge`, naming the bound;
  ///   nothing is added then.
  public mutating func spend(_ expansion: SegmentResolver.Expansion, at path: RepresentationPath)
    throws
  {
    let segments = segmentCount.addingReportingOverflow(expansion.segmentCount)
    guard !segments.overflow, segments.partialValue <= maximumSegmentCount else {
      throw MPDError(
        .tooManySegments, at: path.description,
        "With this Representation the download lists more than \(maximumSegmentCount) "
          + "segments in all (Periods and Representations together); at most "
          + "\(maximumSegmentCount) segments in all are allowed.")
    }
    let bytes = urlBytes.addingReportingOverflow(expansion.urlBytes)
    guard !bytes.overflow, bytes.partialValue <= maximumURLBytes else {
      throw MPDError(
        .urlsTooLarge, at: path.description,
        "With this Representation the segment URLs of the download take more than "
          + "\(SegmentResolver.mebibytes(maximumURLBytes)) MiB; at most "
          + "\(SegmentResolver.mebibytes(maximumURLBytes)) MiB of segment URLs are allowed in all.")
    }
    segmentCount = segments.partialValue
    urlBytes = bytes.partialValue
  }
}
