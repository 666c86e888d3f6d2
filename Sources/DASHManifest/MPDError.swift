/// Why a manifest could not be parsed or its segments listed: what is wrong and where, as
/// the path of the element (`MPD/Period[1]/AdaptationSet[2]`, 1-based among siblings of the
/// same name).
///
/// ```swift
/// do { _ = try MPDParser.parse(data) } catch let error as MPDError { print(error) }
/// // "MPD/Period[1]/AdaptationSet[2]/Representation[1]: id is missing."
/// ```
public struct MPDError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is, for code that reacts to some.
  public enum Kind: Sendable, Equatable {
    /// The bytes are not well-formed XML.
    case notXML
    /// The root element is not `MPD`.
    case notMPD
    /// A required attribute or child is missing.
    case missingAttribute
    /// An attribute's value is not what the standard allows (a number, a duration, a range).
    case malformedValue
    /// A URL template is malformed, has an identifier this module does not know, or mixes
    /// identifiers the standard forbids together.
    case invalidTemplate
    /// A URL does not parse, or resolves to something that is not a URL.
    case invalidURL
    /// Listing the segments would give more than the resolver's bound, or a download more
    /// than its `SegmentBudget`.
    case tooManySegments
    /// The segment URLs of a listing would take more bytes than the resolver's bound, or
    /// those of a download more than its `SegmentBudget`.
    case urlsTooLarge
    /// Something valid that this module does not handle (such as a hierarchical `sidx`).
    case unsupported
    /// A `sidx` box is truncated or inconsistent.
    case malformedSegmentIndex
  }

  /// What kind of problem it is.
  public var kind: Kind
  /// The element's path, such as `MPD/Period[1]/AdaptationSet[2]`.
  public var path: String
  /// A sentence that says what is wrong.
  public var message: String

  /// Creates an error of `kind` at `path` with a human-readable `message`.
  public init(_ kind: Kind, at path: String, _ message: String) {
    self.kind = kind
    self.path = path
    self.message = message
  }

  /// The error as `path: message`.
  public var description: String { "\(path): \(message)" }
}
