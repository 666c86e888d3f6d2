import Foundation
import HLSPlaylist

/// Everything one HLS download fetches and writes: the pieces (segments, init sections),
/// the keys, and the offline playlists that point at them with relative local URIs.
struct HLSPlan: Sendable {
  /// One file to fetch: a whole resource, or a slice of one (byte-range segments, merged
  /// when adjacent).
  struct Piece: Sendable, Hashable {
    var remote: URL
    /// The path inside the content folder, for example `video/s00007.ts`.
    var local: String
    var slice: Transfer.Slice?
    var estimatedBytes: Int64
    /// The media segments whose bytes this file holds: one for a whole segment, several
    /// for merged byte ranges, 0 for an init section.
    var segments = 0
    /// Seconds of media in those segments (0 for an init section).
    var duration = 0.0
    /// The media playlist the piece belongs to: its index among the planned media playlists
    /// (the variant first, then the renditions).
    var rendition = 0
    /// The pack (a path inside the content folder, for example `video/pack.ts`) this piece
    /// goes into when its whole body arrives within one write buffer (see ``PiecePack``); it
    /// keeps a file of its own otherwise. Set for a media segment fetched whole; nil for init
    /// sections, merged byte ranges, encrypted segments, subtitles, and DASH, whose offline
    /// manifest has no byte ranges.
    var pack: String?

    /// Counts one more media segment, of `seconds`, in this piece.
    mutating func add(segmentOf seconds: Double) {
      segments += 1
      duration += seconds
    }
  }

  /// One key to fetch once and keep (mode 0600) for offline playback.
  struct KeyFile: Sendable, Hashable, Codable {
    var remote: URL
    /// The path inside the content folder, for example `keys/k0.key.ts` (see
    /// ``HLSKeyNames`` for why it ends in `.ts`).
    var local: String
  }

  /// One media playlist to write.
  struct MediaFile: Sendable {
    /// The path inside the content folder, for example `audio-fr/playlist.m3u8`.
    var local: String
    var playlist: MediaPlaylist
  }

  var pieces: [Piece] = []
  var keys: [KeyFile] = []
  var mediaFiles: [MediaFile] = []
  /// `index.m3u8`: only what is downloaded.
  var index: Playlist
  /// `index-remote.m3u8`: what was not downloaded stays, with its remote URLs.
  var indexWithRemote: Playlist
  var duration: Double = 0
  /// Renditions asked for that could not be included, and why.
  var warnings: [HLSWarning] = []

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
