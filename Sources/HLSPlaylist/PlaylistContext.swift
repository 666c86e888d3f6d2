/// Where a playlist came from: what its `EXT-X-DEFINE` tags may draw values from
/// (RFC 8216bis §4.4.2.3).
///
/// `QUERYPARAM` reads a query parameter of the playlist's own URI, which is how a token in
/// the URL of a multivariant playlist reaches its media playlists and segments; `IMPORT` reads
/// a variable of the multivariant playlist that led to a media playlist.
///
/// ```swift
/// let master = try PlaylistParser.parse(masterText, context: PlaylistContext(uri: masterURL))
/// let media = try PlaylistParser.parse(
///   mediaText,
///   context: PlaylistContext(uri: variantURL, multivariantVariables: master.variables))
/// ```
public struct PlaylistContext: Sendable, Equatable {
  /// The URI the playlist was requested with, query included; nil when unknown, and then a
  /// `QUERYPARAM` definition fails. A `QUERYPARAM` variable's value is the parameter's value
  /// as written in this URI, percent-encoding kept, so that a token substituted into another
  /// URI means there what it meant here.
  public var uri: String?
  /// The variables of the multivariant playlist that led to this media playlist, by name
  /// (its `ParsedPlaylist.variables`); nil when the playlist was not reached through one, and
  /// then an `IMPORT` definition fails.
  public var multivariantVariables: [String: String]?

  /// Creates a context; the defaults describe a playlist read on its own.
  public init(uri: String? = nil, multivariantVariables: [String: String]? = nil) {
    self.uri = uri
    self.multivariantVariables = multivariantVariables
  }
}
