/// The pieces of a stream on disk as its run goes: what a player may be handed before the
/// stream is complete (``HLSGrowingPlaylists``). Every piece in it is in the journal.
struct PieceLanding: Sendable, Equatable {
  /// The pieces on disk, by ``StreamPiece/local``.
  var landed: Set<String> = []
  /// Where the pieces in packs are (some may not be in ``landed`` yet).
  var packed: [String: PieceRunner.PackedPiece] = [:]
}
