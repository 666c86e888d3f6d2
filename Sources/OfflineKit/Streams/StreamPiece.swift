import Foundation

/// One file of a stream to fetch (a media segment, an init section, adjacent byte ranges
/// merged): a whole resource, or a slice of one.
struct StreamPiece: Sendable, Hashable {
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
  /// The same file at the stream's other sources, in the order they are tried when
  /// ``remote`` fails (``StreamFailover``): the URL at source 1, 2… (a DASH `BaseURL`
  /// alternative, an HLS backup variant or pathway). Empty when the stream has one source.
  var alternates: [URL] = []

  /// Counts one more media segment, of `seconds`, in this piece.
  mutating func add(segmentOf seconds: Double) {
    segments += 1
    duration += seconds
  }
}

extension StreamPiece {
  /// `pieces` (as a planner lists them: each media playlist's in turn) in the order a player
  /// needs them: by the time their media starts, and at one time the earlier-listed first
  /// (an init section before its first segment, the variant before its renditions). A
  /// player that starts while the stream downloads finds video, audio and subtitles on disk
  /// up to the same moment, and so does a growing playlist. Pieces without durations (DASH's)
  /// keep their order.
  static func inPlaybackOrder(_ pieces: [StreamPiece]) -> [StreamPiece] {
    var elapsed: [Int: Double] = [:]  // seconds before the next piece, by media playlist
    var starts: [Double] = []
    starts.reserveCapacity(pieces.count)
    for piece in pieces {
      let start = elapsed[piece.rendition, default: 0]
      starts.append(start)
      elapsed[piece.rendition] = start + piece.duration
    }
    let order = pieces.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
    return order.map { pieces[$0] }
  }
}
