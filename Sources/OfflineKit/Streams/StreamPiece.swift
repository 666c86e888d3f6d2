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

  /// Counts one more media segment, of `seconds`, in this piece.
  mutating func add(segmentOf seconds: Double) {
    segments += 1
    duration += seconds
  }
}
