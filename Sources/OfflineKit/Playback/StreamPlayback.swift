import Foundation
import OfflineLocks
import Synchronization

/// Where the players of one stream content stand while it downloads, and what its running
/// download shows them: which pieces (segments, init sections) are on disk and where, shared
/// by the service's read-through (``OfflineContent/piece(_:restrictedToAssetCache:patience:)``)
/// and the content's ``PieceRunner``.
///
/// A player that asks for a piece not on disk says so (``want(_:)``); the running download
/// hears of it at once through the handler it attached (``attach(planned:board:onDemand:)``)
/// and fetches that piece next, ahead of the queue and past its concurrency limit if need
/// be. The download tells the playback each piece the moment it lands (``didLand(_:)``),
/// which wakes the players waiting for it. While a piece is in flight it shows where its
/// bytes grow (``flight(of:)``), so a player can read them as they arrive
/// (``ArrivingPiece``). Every member may be called from any thread; handlers run outside the
/// lock.
final class StreamPlayback: IdleTelling {
  /// Where a piece's bytes are inside the content's folder.
  enum Location: Sendable, Equatable {
    /// A file of its own, by its path inside the folder (the piece's own name).
    case file(String)
    /// A region of a pack (``PiecePack``).
    case packed(PieceRunner.PackedPiece)
  }

  private struct State {
    /// The pieces players asked for and do not have yet, with the order they asked in.
    var wants: [String: Int] = [:]
    var wantCount = 0
    /// Who waits for a piece to land, by token.
    var wakers: [Int: @Sendable () -> Void] = [:]
    var nextToken = 0
    /// The running download's pieces (nil when none runs), and what of them is on disk:
    /// its runner's record, kept after it ends while the playback is held.
    var planned: Set<String>?
    var board: LandedPieces?
    var onDemand: (@Sendable () -> Void)?
    /// Counts attaches and detaches: a waiter for a piece of a download that ended looks at
    /// the journal again.
    var changes = 0
    /// The pieces the running download is fetching now, by ``StreamPiece/local``.
    var flights: [String: Flight] = [:]
  }

  /// A piece the running download is fetching: where its bytes grow, and how many there
  /// will be once known.
  struct Flight: Sendable, Equatable {
    /// The absolute path of the piece's part file. Its bytes from 0 on are the piece's
    /// (a slice's from its first byte), written in order by one connection; it holds none
    /// while the whole body still fits in the transfer's write buffer, and it becomes the
    /// piece's own file when complete (a piece that ends in a pack never opens it).
    var part: String
    /// The piece's length, once its response said it (or its slice's, from the start).
    var length: Int64?
    /// Counts the times the piece started over: bytes read before belong to another version.
    var restarts = 0
  }

  private let state = Locked(State())
  /// Whether a player waits: the download's landings tell nobody otherwise.
  private let waiting = Atomic<Bool>(false)

  /// A running download with these `planned` pieces shows what of them is on disk through
  /// `board` (its runner's own record) and hears of players' wants through `onDemand`; the
  /// players are woken.
  func attach(
    planned: Set<String>, board: LandedPieces, onDemand: @escaping @Sendable () -> Void
  ) {
    let hasWants = change { state in
      state.planned = planned
      state.board = board
      state.onDemand = onDemand
      state.wants = state.wants.filter { !board.contains($0.key) }
      return !state.wants.isEmpty
    }
    if hasWants { onDemand() }
  }

  /// The running download ended: it plans nothing now, and players waiting are woken. What
  /// it showed of landed pieces stays while the playback is held (the journal says the
  /// same once the manager's batch records the pieces).
  func detach() {
    change { state in
      state.planned = nil
      state.onDemand = nil
      state.flights = [:]
    }
  }

  /// The running download started fetching piece `local` into the part file `part`;
  /// `length` is its length when known already (a slice's).
  func didStart(_ local: String, part: String, length: Int64?) {
    state.withLock { $0.flights[local] = Flight(part: part, length: length) }
  }

  /// Piece `local`, in flight, has `length` bytes in all (nil: not known yet); its readers
  /// are woken, as bytes may have reached its part since. Called at each progress tick.
  func didProgress(_ local: String, length: Int64?) {
    state.withLock { state in
      guard let length, state.flights[local]?.length != length else { return }
      state.flights[local]?.length = length
    }
    wakeWaiting()
  }

  /// Piece `local` started over: what its part held is thrown away.
  func didRestart(_ local: String) {
    state.withLock { $0.flights[local]?.restarts += 1 }
    wakeWaiting()
  }

  /// Piece `local` stopped without landing (it failed, or the run was stopped).
  func didStop(_ local: String) {
    state.withLock { _ = $0.flights.removeValue(forKey: local) }
    wakeWaiting()
  }

  /// Piece `local` as the running download fetches it; nil when it is not in flight.
  func flight(of local: String) -> Flight? {
    state.withLock { $0.flights[local] }
  }

  /// Piece `local` landed (the runner's board says where): its players are woken. Cheap
  /// when no player waits (one atomic load besides the lock).
  func didLand(_ local: String) {
    state.withLock { state in
      state.wants[local] = nil
      state.flights[local] = nil
    }
    wakeWaiting()
  }

  /// Wakes the players that wait, if any. Cheap when none does (one atomic load).
  private func wakeWaiting() {
    guard waiting.load(ordering: .relaxed) else { return }
    let handlers = state.withLock { Array($0.wakers.values) }
    for wake in handlers { wake() }
  }

  /// Where piece `local` is when the running download (or the last one of this process)
  /// said it landed; nil otherwise.
  func location(of local: String) -> Location? {
    state.withLock { $0.board }?.location(of: local)
  }

  /// Whether a download runs and plans piece `local`: asking for it is worth waiting.
  func isPlanned(_ local: String) -> Bool {
    state.withLock { $0.planned?.contains(local) == true }
  }

  /// Whether a download runs behind the playback.
  var isRunning: Bool { state.withLock { $0.planned != nil } }

  /// How many times a download attached or detached: compared before and after a wait.
  var changes: Int { state.withLock { $0.changes } }

  /// A player needs piece `local` now: the running download, if any, hears of it.
  func want(_ local: String) {
    let handler = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.board?.contains(local) != true, state.wants[local] == nil else { return nil }
      state.wantCount += 1
      state.wants[local] = state.wantCount
      return state.onDemand
    }
    handler?()
  }

  /// The pieces players wait for, the latest asked first.
  var wants: [String] {
    state.withLock { state in
      state.wants.sorted { $0.value > $1.value }.map(\.key)
    }
  }

  /// Calls `waker` (from any thread) whenever a piece lands or a download attaches or
  /// detaches, until ``removeWaker(_:)``; returns its token.
  func addWaker(_ waker: @escaping @Sendable () -> Void) -> Int {
    state.withLock { state in
      state.nextToken += 1
      state.wakers[state.nextToken] = waker
      waiting.store(true, ordering: .relaxed)
      return state.nextToken
    }
  }

  /// Stops the waker `token`.
  func removeWaker(_ token: Int) {
    state.withLock { state in
      state.wakers[token] = nil
      waiting.store(!state.wakers.isEmpty, ordering: .relaxed)
    }
  }

  /// Whether nothing holds the playback: no waiting player, no download attached.
  var isIdle: Bool { state.withLock { $0.wakers.isEmpty && $0.planned == nil } }

  /// Makes `edit`, counts it in ``State/changes`` and wakes the players; returns what
  /// `edit` returned.
  private func change<T>(_ edit: (inout State) -> T) -> T {
    let (result, handlers) = state.withLock { state in
      let result = edit(&state)
      state.changes += 1
      return (result, Array(state.wakers.values))
    }
    for wake in handlers { wake() }
    return result
  }
}
