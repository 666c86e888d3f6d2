/// The tally's progress of a download (reported to the app as ``OfflineProgress``, with
/// its rate): bytes against an estimate that becomes exact as sizes arrive.
///
/// `bytes / total` never goes down, and stays below 1 until the last piece is on disk.
/// The total uses every size known (byte ranges from the playlist, each piece's
/// `Content-Length` once its response starts, finished pieces' lengths); for the other
/// pieces it assumes the bytes per second of media seen so far in the same rendition, and
/// the playlist's `BANDWIDTH` × duration only while nothing of that rendition is known.
struct StreamProgress: Sendable, Equatable {
  /// Bytes of the pieces on disk; a piece that starts over counts the most it had until it
  /// passes that again, so this never goes down.
  var bytes: Int64
  /// The total: exact once every size is known, else an estimate (see the type's summary).
  /// When the estimate rises, this is held lower until the bytes catch up, so the fraction
  /// does not move back.
  var total: Int64
  /// Whether ``total`` is still an estimate (a size is unknown, or the total is held).
  var totalIsEstimate: Bool
  /// Media segments on disk (those of the files complete so far).
  var segmentsDone: Int
  /// Media segments planned.
  var segmentsPlanned: Int
}
