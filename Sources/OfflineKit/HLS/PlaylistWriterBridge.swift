import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineLocks
import OfflineStore

/// Writes playlists as text.
enum PlaylistWriterBridge {
  static func text(_ playlist: Playlist) -> String { PlaylistWriter.write(playlist) }
}
