/// What `PlaylistParser.parse(_:context:)` read: the playlist, with every variable reference
/// already replaced by its value, and the variables its `EXT-X-DEFINE` tags defined.
///
/// ```swift
/// let parsed = try PlaylistParser.parse(text, context: PlaylistContext(uri: url))
/// if case .master(let master) = parsed.playlist {
///   let next = PlaylistContext(uri: variantURL, multivariantVariables: parsed.variables)
/// }
/// ```
public struct ParsedPlaylist: Sendable, Equatable {
  /// The playlist, holding substituted values and no `EXT-X-DEFINE` tag.
  public var playlist: Playlist
  /// Every variable the playlist defined (by `NAME`/`VALUE`, `IMPORT` or `QUERYPARAM`), by
  /// name. For a multivariant playlist, pass them to its media playlists as
  /// `PlaylistContext.multivariantVariables`. Values may hold secrets such as tokens.
  public var variables: [String: String]

  /// Creates a result from a playlist and its variables.
  public init(playlist: Playlist, variables: [String: String] = [:]) {
    self.playlist = playlist
    self.variables = variables
  }
}
