import Foundation

/// How a stream's download went (HLS or DASH): the offline playlist or MPD, the bytes, the
/// media segments, init sections and keys, and the files (merged byte ranges share one).
package struct StreamOutcome: Sendable, Equatable {
  /// The offline playlist or MPD in the folder: `index.m3u8` or `index.mpd`.
  public var index: URL
  /// Bytes of segments, init sections and keys on disk.
  public var bytes: Int64
  /// Media segments on disk, across the variant and its renditions; each byte range of a
  /// single-file stream counts as one.
  public var segments: Int
  /// Init sections (`EXT-X-MAP`) on disk.
  public var initSections: Int
  /// Keys on disk.
  public var keys: Int
  /// Pieces fetched for segments and init sections: adjacent byte ranges of one remote
  /// file share one, so this can be fewer than ``segments``. Each is a file of its own on
  /// disk, unless it went into a pack (``StreamConfiguration/packsSmallSegments``).
  public var files: Int
  /// The stream's duration in seconds.
  public var duration: Double
  /// Renditions asked for that could not be included, and why (for example a variant
  /// naming an audio group the master playlist does not define).
  public var warnings: [StreamWarning] = []
  /// The protocol the pieces came over ("HTTP/1.1", "HTTP/2"); nil when this run fetched
  /// none (they were on disk).
  public var httpVersion: String?
  /// The most pieces (segments, init sections) that were in flight at once.
  public var mostPiecesInFlight = 0
  /// What each source of the stream served in this run, the primary first, when it has
  /// several (DASH `BaseURL` alternatives, HLS backup variants or content steering
  /// pathways; see ``StreamFailover``): bytes, and in ``Transfer/SourceReport/dropped`` how
  /// many pieces failed there and came from another source. Empty with one source.
  public var sources: [Transfer.SourceReport] = []
}
