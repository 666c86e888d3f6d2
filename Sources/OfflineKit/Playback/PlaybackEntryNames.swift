/// The names of the playlists and MPDs a player opens while a stream downloads, in the
/// stream's folder: written here, routed by `offline serve` (one spelling for both).
package enum PlaybackEntryNames {
  /// HLS, restricted to what is on disk: the growing entry playlist.
  package static let partialPlaylist = "index-partial.m3u8"
  /// HLS, restricted to what is on disk: a rendition's growing media playlist.
  package static let partialMediaPlaylist = "partial.m3u8"
  /// HLS, the whole presentation by local names, read through: the entry playlist.
  package static let throughPlaylist = "index-through.m3u8"
  /// HLS, read through: a rendition's media playlist.
  package static let throughMediaPlaylist = "through.m3u8"
  /// DASH, restricted to what is on disk: the MPD cut where the disk ends.
  package static let partialManifest = "index-partial.mpd"
  /// DASH, the whole presentation by local names, read through.
  package static let throughManifest = "index-through.mpd"
}
