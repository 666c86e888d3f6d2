import Dispatch

/// Runs the checks of pieces as their bytes land, on a serial queue of its own, so the
/// transport's thread that wrote the bytes only hands them over.
///
/// A piece one request wrote whole is hashed where its bytes are read back for the chunk
/// digests (``HashBehind``), and only its digest comes here (``digested(_:sha256:)``); one
/// whose bytes came from several requests is read back and hashed here once all are written
/// (``landed(_:readBackFrom:)``; a 1 MiB piece takes about a millisecond, which the body
/// callback must not wait for).
///
/// Each call queues one check; ``drain()`` waits for every check queued before it. The owner
/// drains it before the file the checks read is closed.
final class PieceChecker: Sendable {
  /// Where the pieces stand.
  let ledger: PieceLedger
  /// The length of the pieces checked.
  var pieceLength: Int64 { ledger.checks.length }
  private let queue = DispatchQueue(label: "offlinekit.piece-checks")
  private let check: @Sendable (Range<Int64>, Int64) -> Void
  private let judge: @Sendable (Int, String, Int) -> Void

  /// A checker of the pieces of `ledger` that runs `check` with the bytes that landed (and
  /// where their writer's read-back began), and `judge` with a piece's digest (and
  /// ``PieceLedger/badFinds`` when its request began).
  init(
    ledger: PieceLedger, check: @escaping @Sendable (Range<Int64>, Int64) -> Void,
    judge: @escaping @Sendable (Int, String, Int) -> Void
  ) {
    self.ledger = ledger
    self.check = check
    self.judge = judge
  }

  /// Queues a check of `bytes`, just written by a request whose bytes from `readBackFrom` on
  /// are read back for their pieces' digests; returns at once.
  func landed(_ bytes: Range<Int64>, readBackFrom: Int64) {
    queue.async { [check] in check(bytes, readBackFrom) }
  }

  /// Queues the judgement of piece `index`, whose bytes, read back after their write, have
  /// this SHA-256 (lowercase hex), written by a request that began when
  /// ``PieceLedger/badFinds`` was `finds`; returns at once.
  func digested(_ index: Int, sha256: String, finds: Int) {
    queue.async { [judge] in judge(index, sha256, finds) }
  }

  /// Waits until every check queued so far has run.
  func drain() {
    queue.sync {}
  }
}
