/// Why an export failed, as `offline-export` hands it to `offline`: the library's sentence,
/// and for the failures an option changes, which one and the path, so that `offline` can name
/// the option.
public struct ExportFailure: Sendable, Equatable, Codable {
  /// The failures `offline` words itself; every other one is ``other``.
  public enum Reason: String, Sendable, Equatable, Codable {
    /// A file is at the destination and overwriting it was not asked for (`--force`).
    case destinationExists
    /// The destination's extension names no format (`--format`).
    case unknownFormat
    /// The destination's folder does not exist.
    case destinationFolderMissing
    /// The request's command line was wrong (a usage error, exit 64).
    case usage
    /// Anything else: the message says what.
    case other
  }

  /// Which failure it is.
  public var reason: Reason
  /// The path the failure is about, for the reasons that have one.
  public var path: String?
  /// A sentence a user can act on (without the option's name).
  public var message: String

  /// Describes a failure.
  public init(reason: Reason, path: String? = nil, message: String) {
    self.reason = reason
    self.path = path
    self.message = message
  }
}
