import DASHManifest
import Foundation

/// Everything one DASH download fetches and writes: the pieces (init sections and media
/// segments, adjacent byte ranges of one file merged) for the piece engine
/// (``PieceRunner``), and each chosen Representation's local files for the offline MPD.
struct DASHPlan: Sendable {
  /// The pieces, in the order they are started.
  var pieces: [StreamPiece] = []
  /// The local files of each chosen Representation, for `OfflineManifest`.
  var files: [RepresentationPath: OfflineRepresentation] = [:]
  /// Media segments listed by the manifest across the chosen Representations (merged byte
  /// ranges count one each).
  var segmentCount = 0
  /// Init sections on disk.
  var initSectionCount = 0
  /// The presentation's duration in seconds.
  var duration = 0.0
  /// What could not be included, and why.
  var warnings: [StreamWarning] = []
  /// One URL naming each source of the pieces, the primary first, for the report of what
  /// each served (``StreamFailover``); empty with one source.
  var sourceNames: [URL] = []
  /// The service location of each source in ``sourceNames``' order (nil where it names
  /// none), for content steering.
  var sourceLocations: [String?] = []
}
