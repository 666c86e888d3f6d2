/// Why a manifest could not be parsed or its segments listed: what is wrong and where, as
/// the path of the element (`MPD/Period[1]/AdaptationSet[2]`, 1-based among siblings of the
/// same name).
///
/// ```swift
/// do { _ = try MPDParser.parse(data) } catch let error as MPDError { print(error) }
/// // "MPD/Period[1]/AdaptationSet[2]/Representation[1]: id is missing."
/// ```
public struct MPDError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is, for code that reacts to some: a value, so a release can add
  /// one without breaking a `switch` that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `notXML`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// The bytes are not well-formed XML.
    public static let notXML = Code("notXML")
    /// The root element is not `MPD`.
    public static let notMPD = Code("notMPD")
    /// A required attribute or child is missing.
    public static let missingAttribute = Code("missingAttribute")
    /// An attribute's value is not what the standard allows (a number, a duration, a range).
    public static let malformedValue = Code("malformedValue")
    /// A URL template is malformed, has an identifier this module does not know, or mixes
    /// identifiers the standard forbids together.
    public static let invalidTemplate = Code("invalidTemplate")
    /// A URL does not parse, or resolves to something that is not a URL.
    public static let invalidURL = Code("invalidURL")
    /// Listing the segments would give more than the resolver's bound, or a download more
    /// than its `SegmentBudget`.
    public static let tooManySegments = Code("tooManySegments")
    /// The segment URLs of a listing would take more bytes than the resolver's bound, or
    /// those of a download more than its `SegmentBudget`.
    public static let urlsTooLarge = Code("urlsTooLarge")
    /// Something valid that this module does not handle (such as a hierarchical `sidx`).
    public static let unsupported = Code("unsupported")
    /// A `sidx` box is truncated or inconsistent.
    public static let malformedSegmentIndex = Code("malformedSegmentIndex")
  }

  /// What kind of problem it is.
  public var code: Code
  /// The same, under the name the package's own code uses.
  package var kind: Code { code }
  /// The element's path, such as `MPD/Period[1]/AdaptationSet[2]`.
  public var path: String
  /// A sentence that says what is wrong.
  public var message: String

  /// Creates an error of `code` at `path` with a human-readable `message`.
  public init(_ code: Code, at path: String, _ message: String) {
    self.code = code
    self.path = path
    self.message = message
  }

  /// The error as `path: message`.
  public var description: String { "\(path): \(message)" }
}
