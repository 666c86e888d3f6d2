import DASHManifest
import Foundation
import HLSPlaylist

/// The offline copy of a stream that an export reads: its top playlist or MPD, and what the
/// playlists say that the demuxer may lose (the duration, the renditions' languages).
struct ExportInput: Sendable, Equatable {
  /// The kind of manifest.
  enum Kind: Sendable, Equatable {
    /// An HLS playlist, `index.m3u8`.
    case hls
    /// A DASH MPD, `index.mpd`.
    case dash
  }

  /// A rendition the master playlist names, in its order.
  struct Rendition: Sendable, Equatable {
    /// Audio or subtitles.
    var type: HLSPlaylist.Rendition.MediaType
    /// The `LANGUAGE` attribute.
    var language: String?
    /// `DEFAULT=YES`.
    var isDefault: Bool
    /// Its media playlist, when it has one.
    var playlist: URL? = nil
  }

  /// The kind of manifest.
  var kind: Kind
  /// The top playlist or MPD.
  var manifest: URL
  /// The presentation's duration in seconds: the longest media playlist, or the MPD's.
  var duration: Double
  /// The longest segment duration in seconds: how far the export's duration may be off.
  var segmentDuration: Double
  /// The renditions of the master playlist, in order; empty for a media playlist or DASH.
  var renditions: [Rendition]
  /// The Periods of a DASH MPD, each demuxed alone and in order (``DemuxedParts``); 1 for HLS.
  var periodCount = 1
}
