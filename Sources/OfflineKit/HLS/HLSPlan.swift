import Foundation
import HLSPlaylist

/// Everything one HLS download fetches and writes: the pieces (segments, init sections),
/// the keys, and the offline playlists that point at them with relative local URIs.
struct HLSPlan: Sendable {
  /// One key to fetch once and keep (mode 0600) for offline playback.
  struct KeyFile: Sendable, Hashable, Codable {
    var remote: URL
    /// The path inside the content folder, for example `keys/k0.key.ts` (see
    /// ``HLSKeyNames`` for why it ends in `.ts`).
    var local: String
    /// The same key at the stream's other sources (backup variants, content steering
    /// pathways), asked in turn when ``remote`` does not answer; nil when it has none.
    var alternates: [URL]?

    /// ``alternates``, empty when there are none.
    var elsewhere: [URL] {
      get { alternates ?? [] }
      set { alternates = newValue.isEmpty ? nil : newValue }
    }
  }

  /// One media playlist to write.
  struct MediaFile: Sendable {
    /// The path inside the content folder, for example `audio-fr/playlist.m3u8`.
    var local: String
    var playlist: MediaPlaylist
    /// The same playlist as the origin serves it, at ``remoteURL`` (its URIs relative to
    /// that): a segment not on disk yet is played from there while the download runs
    /// (``HLSGrowingPlaylists``, which resolves only the URIs it writes).
    var remote: MediaPlaylist
    /// Where the origin serves ``remote``.
    var remoteURL: URL
  }

  var pieces: [StreamPiece] = []
  var keys: [KeyFile] = []
  var mediaFiles: [MediaFile] = []
  /// `index.m3u8`: only what is downloaded.
  var index: Playlist
  /// `index-remote.m3u8`: what was not downloaded stays, with its remote URLs.
  var indexWithRemote: Playlist
  var duration: Double = 0
  /// Renditions asked for that could not be included, and why.
  var warnings: [StreamWarning] = []
  /// One URL naming each source of the pieces, the primary first, for the report of what
  /// each served (``StreamFailover``); empty with one source.
  var sourceNames: [URL] = []
  /// The media playlists planned (the variant first), as fetched: a pathway a steering
  /// reload adds is planned against them (``HLSReloadClones``).
  var sources: [HLSPlanner.Source] = []

  /// Media segments across the offline media playlists (a byte range counts one).
  var segmentCount: Int { mediaFiles.reduce(0) { $0 + $1.playlist.segments.count } }

  /// Distinct init sections (`EXT-X-MAP`) across the offline media playlists.
  var initSectionCount: Int {
    mediaFiles.reduce(0) { count, media in
      var seen: [MapSection] = []
      for map in media.playlist.segments.compactMap(\.map) where !seen.contains(map) {
        seen.append(map)
      }
      return count + seen.count
    }
  }

  /// The sum of the pieces' estimated sizes.
  var estimatedBytes: Int64 { pieces.reduce(0) { $0 + $1.estimatedBytes } }
}
