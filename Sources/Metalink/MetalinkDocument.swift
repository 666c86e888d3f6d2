import Foundation

/// A Metalink: the files it describes, each with its size, hashes and mirrors.
///
/// Made by ``MetalinkParser`` from Metalink 4 (RFC 5854, `.meta4`) or Metalink 3
/// (`.metalink`, the older format MirrorBrain and mirrorbits still serve), which map to the
/// same values. Files whose description breaks a rule are not in ``files`` but in
/// ``refusedFiles``, each with the reason (see ``MetalinkParser`` for which rules refuse a
/// file and which the whole document).
///
/// ```swift
/// let metalink = try MetalinkParser.parse(data)
/// for file in metalink.files {
///   print(file.name, file.size ?? 0, file.usableURLs(preferring: "de").map(\.text))
/// }
/// ```
public struct MetalinkDocument: Sendable, Equatable {
  /// Which of the two formats a document was written in.
  public enum Format: Sendable, Hashable {
    /// Metalink 4, RFC 5854: namespace `urn:ietf:params:xml:ns:metalink`.
    case metalink4
    /// Metalink 3.0: namespace `http://www.metalinker.org/`.
    case metalink3
  }

  /// The format the document was written in.
  public var format: Format
  /// The files that passed every rule, in document order.
  public var files: [MetalinkFile]
  /// Why each other file was refused, in document order.
  public var refusedFiles: [MetalinkError]
  /// The program that wrote the document (`generator`), as it names itself.
  public var generator: String?
  /// Where the document itself can be fetched again (`origin`), as written.
  public var origin: String?
  /// Whether the origin serves newer versions of this document (`dynamic="true"` in
  /// Metalink 4, `type="dynamic"` in Metalink 3).
  public var isDynamic: Bool
  /// When the document was first published, when the date parses (RFC 3339 in Metalink 4,
  /// RFC 822 in Metalink 3).
  public var published: Date?
  /// When it was last updated, when the date parses.
  public var updated: Date?

  /// Creates a document.
  public init(
    format: Format, files: [MetalinkFile], refusedFiles: [MetalinkError] = [],
    generator: String? = nil, origin: String? = nil, isDynamic: Bool = false,
    published: Date? = nil, updated: Date? = nil
  ) {
    self.format = format
    self.files = files
    self.refusedFiles = refusedFiles
    self.generator = generator
    self.origin = origin
    self.isDynamic = isDynamic
    self.published = published
    self.updated = updated
  }

  /// The file named `name`, if the document describes it and it was not refused.
  public func file(named name: String) -> MetalinkFile? { files.first { $0.name == name } }
}
