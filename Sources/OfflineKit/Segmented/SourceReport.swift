import Foundation

extension Transfer {
  /// One source of a file fetched from several (its URL, its mirrors, a Metalink's URLs or
  /// the duplicates its server named): how many bytes it served, how many pieces it served
  /// wrong, and why it was dropped when it was. Found in ``Transfer/Outcome/sources``, the
  /// primary first.
  public struct SourceReport: Sendable, Equatable {
    /// The source's URL.
    public var url: URL
    /// Whether it is the primary URL (the others are mirrors).
    public var isPrimary: Bool
    /// Body bytes of the file it served in this run, counted as they were written (bytes of
    /// a piece found bad and fetched again count too).
    public var bytes: Int64
    /// How many times a piece it served bytes of had the wrong SHA-256 and was fetched
    /// again (only with piece hashes, such as a Metalink's).
    public var badPieces: Int
    /// Why it was dropped, as a sentence; nil when it was used to the end.
    public var dropped: String?
    /// The HLS content steering pathway it is (its `PATHWAY-ID`, for example `CDN-A`), for
    /// a stream with a steering manifest; nil for any other source.
    public var pathway: String?

    /// Creates a report.
    public init(
      url: URL, isPrimary: Bool, bytes: Int64, badPieces: Int = 0, dropped: String?,
      pathway: String? = nil
    ) {
      self.url = url
      self.isPrimary = isPrimary
      self.bytes = bytes
      self.badPieces = badPieces
      self.dropped = dropped
      self.pathway = pathway
    }
  }
}

extension SourceChoice.DropReason: CustomStringConvertible {
  /// The reason as a phrase a user can act on.
  var description: String {
    switch self {
    case .lengthMismatch(let expected, let actual?):
      return "its length \(actual) differs from the file's \(expected) bytes"
    case .lengthMismatch(let expected, nil):
      return "it did not tell its length (the file has \(expected) bytes)"
    case .refused(let status):
      return "it answered a range request with HTTP \(status)"
    case .unreachable(let reason):
      return "it could not be reached (\(reason))"
    case .inconsistent:
      return "it answered a range with other bytes than asked for"
    case .repeatedFailures:
      return "its requests kept failing"
    case .badPieces:
      return "pieces it served had the wrong SHA-256, twice"
    case .digestMismatch(let expected, let actual):
      return "it tells the file's SHA-256 as \(actual), not \(expected)"
    }
  }
}

extension SourceChoice {
  /// What each source served and why any was dropped, the primary first.
  var reports: [Transfer.SourceReport] {
    sources.enumerated().map { index, source in
      Transfer.SourceReport(
        url: source.url, isPrimary: index == 0, bytes: source.bytes,
        badPieces: source.badPieces, dropped: source.dropped?.description)
    }
  }
}
