import OfflineLocks

/// The pieces of a run that are on disk, and where: written by its ``PieceRunner`` the
/// moment each lands, read by the stream's players through its ``StreamPlayback`` (one
/// record for both, as ``RangeBoard`` is for a file's ranges). Any thread.
final class LandedPieces: Sendable {
  private let state: Locked<PieceLanding>

  /// What is on disk to begin with (what an earlier run finished).
  init(_ landing: PieceLanding = PieceLanding()) {
    state = Locked(landing)
  }

  /// What is on disk now.
  var landing: PieceLanding { state.withLock { $0 } }

  /// Piece `local` landed.
  func didLand(_ local: String) {
    state.withLock { _ = $0.landed.insert(local) }
  }

  /// Piece `local` is at `region` of its pack (it may not have landed yet).
  func didPack(_ local: String, at region: PieceRunner.PackedPiece) {
    state.withLock { $0.packed[local] = region }
  }

  /// Where piece `local` is in its pack, if it went into one.
  func region(of local: String) -> PieceRunner.PackedPiece? {
    state.withLock { $0.packed[local] }
  }

  /// Whether piece `local` landed.
  func contains(_ local: String) -> Bool {
    state.withLock { $0.landed.contains(local) }
  }

  /// The pieces in packs, by their local path.
  var packed: [String: PieceRunner.PackedPiece] { state.withLock { $0.packed } }

  /// Where piece `local` is, once it landed: a file of its own or a region of a pack.
  func location(of local: String) -> StreamPlayback.Location? {
    state.withLock { landing in
      guard landing.landed.contains(local) else { return nil }
      if let region = landing.packed[local] { return .packed(region) }
      return .file(local)
    }
  }
}
