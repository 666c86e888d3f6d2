import Foundation

/// A mirror a server names in a `Link: <…>; rel=duplicate` field (RFC 6249 §3.2): another
/// place that serves the same bytes.
public struct DuplicateLink: Sendable, Hashable {
  /// The mirror's URL, resolved against the response's URL; always `http` or `https`.
  public var url: URL
  /// Its priority (`pri`), 1 the highest; nil when absent or not a whole number from 1 to
  /// 999999.
  public var priority: Int?
  /// The country it is in (`geo`), an ISO 3166-1 alpha-2 code in lowercase; nil when absent
  /// or malformed.
  public var location: String?
  /// Whether the server marks it preferred (`pref`), as MirrorBrain does for a mirror close
  /// to the client in network terms.
  public var isPreferred: Bool
  /// The mirror's directory depth (`depth`, RFC 6249 §3.2), which a client may use to find
  /// other files of the same tree on it; kept, not used here. Nil when absent or malformed.
  public var depth: Int?

  /// Creates a mirror entry.
  public init(
    url: URL, priority: Int? = nil, location: String? = nil, isPreferred: Bool = false,
    depth: Int? = nil
  ) {
    self.url = url
    self.priority = priority
    self.location = location
    self.isPreferred = isPreferred
    self.depth = depth
  }
}
