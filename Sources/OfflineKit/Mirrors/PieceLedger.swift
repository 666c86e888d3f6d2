import Foundation
import OfflineLocks

/// Where each piece of a file with piece hashes (``PieceChecks``) stands while it downloads:
/// not checked yet, being checked, verified, or failed for good; and the pieces verified
/// since the journal last recorded them.
///
/// Shared by the connections of one segmented download: a connection claims a piece to check
/// (``claim(_:)``) once every byte of it is written, so no piece is hashed twice at once. The
/// lock is never held across a read of the file.
final class PieceLedger: Sendable {
  /// What is known of one piece.
  enum Status: Sendable, Equatable {
    /// Not checked since its bytes were last written (or not all written yet).
    case unchecked
    /// A connection is hashing it.
    case checking
    /// Its bytes have their SHA-256.
    case verified
    /// It was bad more than ``SegmentedTransfer/mendingRounds`` times: the download fails.
    case failed
  }

  private struct State: Sendable {
    var statuses: [Status]
    /// Times each piece was found bad.
    var badCounts: [Int]
    /// Verified and not yet in the journal.
    var pending: Set<Int> = []
    /// The bytes of every piece found bad in this run.
    var reopened: [Range<Int64>] = []
    /// For each piece, the count of `reopened` just after it was last found bad (0: never).
    var lastFoundBad: [Int]
  }

  /// The hashes the pieces are checked against.
  let checks: PieceChecks
  private let state: Locked<State>

  /// A ledger for `checks` where `verified` (the journal's) are already verified.
  init(_ checks: PieceChecks, verified: some Sequence<Int>) {
    self.checks = checks
    var statuses = Array(repeating: Status.unchecked, count: checks.hashes.count)
    for index in verified where statuses.indices.contains(index) { statuses[index] = .verified }
    state = Locked(
      State(
        statuses: statuses, badCounts: Array(repeating: 0, count: statuses.count),
        lastFoundBad: Array(repeating: 0, count: statuses.count)))
  }

  /// The pieces that hold a byte of `bytes`, in order.
  func pieces(overlapping bytes: Range<Int64>) -> Range<Int> {
    guard !bytes.isEmpty, checks.length > 0 else { return 0..<0 }
    let first = Int(max(0, bytes.lowerBound) / checks.length)
    let last = Int((min(checks.size, bytes.upperBound) - 1) / checks.length)
    return first..<min(checks.hashes.count, max(first, last + 1))
  }

  /// The pieces holding a byte of `bytes`, just written by a request whose bytes from
  /// `readBackFrom` on are read back (``HashBehind``), that its read-back cannot check: those
  /// a byte of which it did not write. The others, written whole by it, get their digest
  /// from that read-back, without a second read of the file.
  func piecesNotReadBack(landed bytes: Range<Int64>, readBackFrom: Int64) -> [Int] {
    pieces(overlapping: bytes).filter { index in
      let piece = checks.range(ofPiece: index)
      return piece.lowerBound < readBackFrom || piece.upperBound > bytes.upperBound
    }
  }

  /// Claims `index` for a check when it is not checked yet; false when it is verified,
  /// failed, or another connection checks it.
  func claim(_ index: Int) -> Bool {
    state.withLock { state in
      guard state.statuses[index] == .unchecked else { return false }
      state.statuses[index] = .checking
      return true
    }
  }

  /// How many times a piece was found bad so far in this run: taken when a request starts,
  /// it tells ``claim(_:writtenSince:)`` which of the pieces it writes were made to fetch
  /// again after it began.
  var badFinds: Int { state.withLock { $0.reopened.count } }

  /// Claims `index` for a check of its digest from the read-back of a request that began
  /// when ``badFinds`` was `finds`: false, besides as ``claim(_:)``, when the piece was found
  /// bad since (the digest may be of its bad bytes, read before they were fetched again, or
  /// of the two mixed; the piece's new bytes are checked on their own).
  func claim(_ index: Int, writtenSince finds: Int) -> Bool {
    state.withLock { state in
      guard state.statuses[index] == .unchecked, state.lastFoundBad[index] <= finds else {
        return false
      }
      state.statuses[index] = .checking
      return true
    }
  }

  /// Gives back a claim whose check could not be made: the piece is unchecked again.
  func unclaim(_ index: Int) {
    state.withLock { state in
      if state.statuses[index] == .checking { state.statuses[index] = .unchecked }
    }
  }

  /// Records that the piece `index` (claimed) has its SHA-256; it waits in ``takePending()``
  /// for the journal.
  func didVerify(_ index: Int) {
    state.withLock { state in
      state.statuses[index] = .verified
      state.pending.insert(index)
    }
  }

  /// Records that the piece `index` (claimed) is bad; returns whether it is to be fetched
  /// again (false once it was bad more than `rounds` times: it is failed for good). When
  /// it is, `reopen` runs first (its bytes made to fetch again), under the ledger's lock, so
  /// no check claims the piece while its bad bytes still count as written.
  func didFindBad(_ index: Int, rounds: Int, reopen: () -> Void = {}) -> Bool {
    state.withLock { state in
      state.badCounts[index] += 1
      state.reopened.append(checks.range(ofPiece: index))
      state.lastFoundBad[index] = state.reopened.count
      let again = state.badCounts[index] <= rounds
      if again { reopen() }
      state.statuses[index] = again ? .unchecked : .failed
      return again
    }
  }

  /// The pieces verified since the last call, for the journal; call before the fsync whose
  /// journal write records them (their bytes were written before they were checked).
  func takePending() -> [Int] {
    state.withLock { state in
      let pending = state.pending.sorted()
      state.pending = []
      return pending
    }
  }

  /// Gives back pieces ``takePending()`` took whose journal write failed.
  func restorePending(_ pieces: [Int]) {
    state.withLock { $0.pending.formUnion(pieces) }
  }

  /// Pieces not verified (unchecked or failed), in order.
  var unverified: [Int] {
    state.withLock { state in state.statuses.indices.filter { state.statuses[$0] != .verified } }
  }

  /// The first piece failed for good, if any.
  var firstFailed: Int? {
    state.withLock { state in state.statuses.firstIndex(of: .failed) }
  }

  /// The bytes of every piece found bad in this run.
  var reopened: [Range<Int64>] { state.withLock { $0.reopened } }

  /// The status of `index` (for tests and reports).
  func status(_ index: Int) -> Status { state.withLock { $0.statuses[index] } }
}
