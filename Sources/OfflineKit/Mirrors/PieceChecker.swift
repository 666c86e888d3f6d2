import Dispatch

/// Runs the checks of pieces as their bytes land, on a serial queue of its own, so the
/// transport's thread that wrote the bytes only hands them over (a 1 MiB piece read back and
/// hashed takes about a millisecond, which the body callback must not wait for).
///
/// Each ``landed(_:)`` queues one check of the bytes; ``drain()`` waits for every check
/// queued before it. The owner drains it before the file the checks read is closed.
final class PieceChecker: Sendable {
  /// The length of the pieces checked.
  let pieceLength: Int64
  private let queue = DispatchQueue(label: "offlinekit.piece-checks")
  private let check: @Sendable (Range<Int64>) -> Void

  /// A checker of pieces of `pieceLength` bytes that runs `check` with the bytes that
  /// landed.
  init(pieceLength: Int64, check: @escaping @Sendable (Range<Int64>) -> Void) {
    self.pieceLength = pieceLength
    self.check = check
  }

  /// Queues a check of `bytes`, just written; returns at once.
  func landed(_ bytes: Range<Int64>) {
    queue.async { [check] in check(bytes) }
  }

  /// Waits until every check queued so far has run.
  func drain() {
    queue.sync {}
  }
}
