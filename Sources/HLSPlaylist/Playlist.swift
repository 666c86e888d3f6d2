/// A parsed HLS playlist: either a master (multivariant) playlist or a media playlist.
///
/// The parser decides which one by the tags present (RFC 8216 §4.3.4, §4.3.3): a playlist that
/// carries `EXT-X-STREAM-INF`, `EXT-X-I-FRAME-STREAM-INF`, `EXT-X-MEDIA`, `EXT-X-SESSION-KEY`
/// or `EXT-X-SESSION-DATA` is a master playlist, anything else is a media playlist.
///
/// ```swift
/// switch try PlaylistParser.parse(text) {
/// case .master(let master): print(master.variants.map(\.uri))
/// case .media(let media): print(media.segments.count, media.totalDuration)
/// }
/// ```
public enum Playlist: Sendable, Equatable {
  /// A master playlist: variants, I-frame variants and renditions.
  case master(MasterPlaylist)
  /// A media playlist: a list of segments.
  case media(MediaPlaylist)
}
