import Foundation
import OfflineHTTP
import OfflineLocks

/// The sources of a stream's pieces and what each served: the stream's own URLs first, then
/// the same content elsewhere (DASH `BaseURL` alternatives, HLS backup variants and content
/// steering pathways), each piece knowing its URL at every source
/// (``StreamPiece/alternates``). Shared by HLS and DASH through ``PieceRunner``.
///
/// A piece goes to the next source at once when its source answers 403, 404, 410 or a 5xx,
/// or cannot be connected to; any other failure is first tried again there as
/// ``PieceRetryPolicy`` says, and the last source left gets the whole policy. A source that
/// failed ``demotedAfter`` pieces in a row is tried last for the pieces that follow until it
/// serves one again, so a CDN that went away costs a few pieces' failures, not one per
/// piece, while one that lacks a segment here and there stays first. The bytes are the same
/// whichever source served them: a piece is a file of the stream, and a part begun at one
/// source goes on at another only with `If-Range` (``Transfer/carryOver(destination:to:journal:)``),
/// starting over when the other's validators differ.
final class StreamFailover: Sendable {
  private let state: Locked<State>

  private struct State {
    var names: [URL]
    /// The HLS content steering pathway of each source, for the reports; nil for none.
    var pathways: [String?]
    /// The URL of each piece, by its local path, at each source added while the pieces
    /// download (``add(_:pathway:urls:)``), from rank `names.count - added.count` on.
    var added: [[String: URL]] = []
    var bytes: [Int64]
    var pieces: [Int]
    var failures: [Int]
    /// Pieces each source failed since it last served one.
    var failedInARow: [Int]
    var lastError: [String?]
    /// The sources in the order a steering manifest last asked for; empty for their own.
    var preferred: [Int] = []
  }

  /// How many pieces in a row a source fails before it is tried after the others.
  static let demotedAfter = 3

  /// Sources named by `names`, the primary first.
  init(names: [URL]) {
    let count = max(names.count, 1)
    state = Locked(
      State(
        names: names, pathways: Array(repeating: nil, count: names.count),
        bytes: Array(repeating: 0, count: count), pieces: Array(repeating: 0, count: count),
        failures: Array(repeating: 0, count: count),
        failedInARow: Array(repeating: 0, count: count),
        lastError: Array(repeating: nil, count: count)))
  }

  /// The sources named after the first piece of `pieces` that has the most alternates.
  convenience init(pieces: [StreamPiece]) {
    let widest = pieces.max { $0.alternates.count < $1.alternates.count }
    self.init(names: widest.map { [$0.remote] + $0.alternates } ?? [])
  }

  /// One URL naming each source (the first piece's URL there), the primary first, then
  /// those ``add(_:pathway:urls:)`` added.
  var names: [URL] { state.withLock { $0.names } }

  /// Names the HLS content steering pathway of each source, by rank (the reports carry
  /// them); a list of another length changes nothing.
  func name(pathways: [String?]) {
    state.withLock { state in
      guard pathways.count == state.names.count else { return }
      state.pathways = pathways
    }
  }

  /// Adds a source while the pieces download (an HLS pathway clone that a steering reload
  /// made): `urls` holds each piece's URL there, by the piece's local path; a piece it does
  /// not name is not fetched there. Returns the source's rank, which ``prefer(_:)`` takes.
  func add(_ name: URL, pathway: String?, urls: [String: URL]) -> Int {
    state.withLock { state in
      if state.names.isEmpty {  // made without names (one source): rank 0 is named too
        state.names = [name]
        state.pathways = [nil]
      }
      state.names.append(name)
      state.pathways.append(pathway)
      state.added.append(urls)
      state.bytes.append(0)
      state.pieces.append(0)
      state.failures.append(0)
      state.failedInARow.append(0)
      state.lastError.append(nil)
      return state.names.count - 1
    }
  }

  /// The sources to try for `piece`, in order: each with its rank (0 the primary) and the
  /// piece's URL there, in the order ``prefer(_:)`` last gave (their own otherwise); with
  /// `demoting`, those that failed ``demotedAfter`` pieces in a row come last.
  func order(for piece: StreamPiece, demoting: Bool = true) -> [(source: Int, url: URL)] {
    var all =
      [(0, piece.remote)] + piece.alternates.enumerated().map { ($0.offset + 1, $0.element) }
    let (demoted, preferred, added, firstAdded) = state.withLock { state in
      (
        Set(state.failedInARow.indices.filter { state.failedInARow[$0] >= Self.demotedAfter }),
        state.preferred, state.added, state.names.count - state.added.count
      )
    }
    for (offset, urls) in added.enumerated() {
      if let url = urls[piece.local], !all.contains(where: { $0.1 == url }) {
        all.append((firstAdded + offset, url))
      }
    }
    guard all.count > 1 else { return all }
    if !preferred.isEmpty {
      let rank = { (source: Int) in preferred.firstIndex(of: source) ?? preferred.count + source }
      all.sort { rank($0.0) < rank($1.0) }
    }
    guard demoting else { return all }
    return all.filter { !demoted.contains($0.0) } + all.filter { demoted.contains($0.0) }
  }

  /// Tries the sources in `order` (source ranks, the first tried first; sources it leaves
  /// out come after, in their own order) for the pieces that start from now on: what a
  /// content steering manifest's new `PATHWAY-PRIORITY` asks. Pieces under way stay where
  /// they are.
  func prefer(_ order: [Int]) {
    state.withLock { state in state.preferred = order.filter { state.names.indices.contains($0) } }
  }

  /// The source tried first for a piece with every alternate, demotions aside.
  var firstPreferred: Int { state.withLock { $0.preferred.first ?? 0 } }

  /// The bytes every source received in this run, together.
  var servedBytes: Int64 { state.withLock { $0.bytes.reduce(0, +) } }

  /// Whether a piece that failed with `error` goes to the next source without trying this
  /// one again: the source answered that it does not have it (403, 404, 410), that it is
  /// failing (5xx), or could not be reached.
  static func movesOnAtOnce(after error: Transfer.Error) -> Bool {
    switch error.kind {
    case .status(let code, _): return [403, 404, 410].contains(code) || (500...599).contains(code)
    case .network(let failure): return [.cannotConnect, .cannotResolveHost].contains(failure.kind)
    default: return false
    }
  }

  /// Whether a piece that failed with `error` (after its tries at one source) is tried at
  /// the next: whatever ``PieceRetryPolicy/isRetryable(_:)`` would try again, and nothing
  /// local (a full disk, a cancel, a checksum that is the stream's own).
  static func triesNext(after error: Transfer.Error) -> Bool {
    PieceRetryPolicy.isRetryable(error) || movesOnAtOnce(after: error)
  }

  /// Counts a piece that `source` served with `bytes` received in this run.
  func didServe(_ source: Int, bytes: Int64) {
    state.withLock { state in
      guard state.bytes.indices.contains(source) else { return }
      state.bytes[source] += bytes
      state.pieces[source] += 1
      state.failedInARow[source] = 0
    }
  }

  /// Counts a piece that `source` failed with `error` after its tries there.
  func didFail(_ source: Int, error: Transfer.Error) {
    state.withLock { state in
      guard state.failures.indices.contains(source) else { return }
      state.failures[source] += 1
      state.lastError[source] = error.description
      state.failedInARow[source] += 1
    }
  }

  /// What each source served, the primary first; a source that failed pieces says so in
  /// ``Transfer/SourceReport/dropped`` (it was still tried for the pieces that followed).
  /// Empty for a stream with one source.
  var reports: [Transfer.SourceReport] {
    state.withLock { state in
      guard state.names.count > 1 else { return [] }
      return state.names.enumerated().map { index, url in
        let failed = state.failures[index]
        return Transfer.SourceReport(
          url: url, isPrimary: index == 0, bytes: state.bytes[index],
          dropped: failed == 0
            ? nil
            : "\(failed) piece\(failed == 1 ? "" : "s") failed there, fetched elsewhere (last: "
              + (state.lastError[index] ?? "unknown") + ")",
          pathway: state.pathways[index])
      }
    }
  }
}
