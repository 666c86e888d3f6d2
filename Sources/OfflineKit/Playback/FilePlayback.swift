import Foundation
import OfflineLocks
import Synchronization

/// Where the readers of one file content stand while it downloads, and what its running
/// download shows them: shared by the content's readers (``OfflineFileReader``) and its
/// transfer, which it reaches through ``Transfer/Configuration``.
///
/// A reader says which byte it needs next (``want(_:for:)``); the running download hears of
/// it at once through the handler it attached (``attach(_:onDemand:)``) and fetches that
/// region ahead of the rest, over a connection of its own when the byte lies beyond what its
/// requests in flight ask for. The download tells the readers when bytes land
/// (``didLand()``), never more often than its writes, and only when a reader waits.
/// Every member may be called from any thread; handlers run outside the lock.
final class FilePlayback: Sendable {
  /// What a running download shows of the file: the bytes that are on disk now.
  enum Source: Sendable {
    /// A download over several connections: its ranges' written parts.
    case ranges(RangeBoard)
    /// A download over one connection: the part file's length (written in order; nothing
    /// is preallocated while one connection writes it).
    case part(path: String)
    /// A download that ended with the whole file of this length at its destination, which
    /// the journal may not say yet (the manager's batch records it).
    case complete(length: Int64)

    /// The bytes on disk now.
    var landed: LandedBytes {
      switch self {
      case .ranges(let board): LandedBytes(ranges: board.snapshot())
      case .part(let path): LandedBytes(prefix: FileSteps.regularFileSize(path) ?? 0)
      case .complete(let length): LandedBytes(prefix: length)
      }
    }

    /// Whether a download runs behind it (a complete file needs none).
    var isRunning: Bool {
      if case .complete = self { return false }
      return true
    }
  }

  private struct State {
    /// Each reader's next byte, and when it asked (a count of wants).
    var wants: [Int: (offset: Int64, order: Int)] = [:]
    var wantCount = 0
    var wakers: [Int: @Sendable () -> Void] = [:]
    var nextToken = 0
    var readers: Set<Int> = []
    var source: Source?
    var onDemand: (@Sendable () -> Void)?
    /// Counts the times the download started the file over: bytes read before belong to
    /// another version.
    var restarts = 0
    /// Counts attaches, detaches and restarts: what a reader worked out from the journal
    /// while nothing ran holds until it changes.
    var changes = 0
  }

  private let state = Locked(State())
  /// Whether a reader waits: the download's writes tell nobody otherwise.
  private let waiting = Atomic<Bool>(false)

  /// A token for a new reader.
  func addReader() -> Int {
    state.withLock { state in
      state.nextToken += 1
      state.readers.insert(state.nextToken)
      return state.nextToken
    }
  }

  /// Forgets the reader `token`: its want and its waker. Returns whether the playback is
  /// idle now: no reader, and no download attached.
  @discardableResult
  func removeReader(_ token: Int) -> Bool {
    state.withLock { state in
      state.wants[token] = nil
      state.wakers[token] = nil
      state.readers.remove(token)
      waiting.store(!state.wakers.isEmpty, ordering: .relaxed)
      return state.readers.isEmpty && state.source?.isRunning != true
    }
  }

  /// Whether a reader has the playback open.
  var hasReaders: Bool { state.withLock { !$0.readers.isEmpty } }

  /// The reader `token` needs the bytes from `offset` on now (nil: nothing any more). The
  /// running download, if any, hears of it.
  func want(_ offset: Int64?, for token: Int) {
    let handler = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.wants[token]?.offset != offset else { return nil }
      state.wantCount += 1
      state.wants[token] = offset.map { ($0, state.wantCount) }
      return offset == nil ? nil : state.onDemand
    }
    handler?()
  }

  /// The bytes the readers need next, the latest want first (a player that seeks leaves an
  /// earlier request behind, which its client may not have closed yet).
  var wants: [Int64] {
    state.withLock { state in
      var seen: Set<Int64> = []
      return state.wants.values.sorted { $0.order > $1.order }.map(\.offset)
        .filter { seen.insert($0).inserted }
    }
  }

  /// Calls `waker` (from any thread) whenever bytes land, the download starts over, or its
  /// source changes; nil stops it.
  func setWaker(_ waker: (@Sendable () -> Void)?, for token: Int) {
    state.withLock { state in
      state.wakers[token] = waker
      waiting.store(!state.wakers.isEmpty, ordering: .relaxed)
    }
  }

  /// A running download shows the file through `source` and hears of readers' wants through
  /// `onDemand` (nil: it cannot fetch out of order); the readers are woken.
  func attach(_ source: Source, onDemand: (@Sendable () -> Void)?) {
    change { state in
      state.source = source
      state.onDemand = onDemand
    }
    if onDemand != nil, !wants.isEmpty { onDemand?() }
  }

  /// The download ended with the whole file, `length` bytes, at its destination: the
  /// readers read all of it from now on, and are woken.
  func didComplete(length: Int64) {
    change { state in
      state.source = .complete(length: length)
      state.onDemand = nil
    }
  }

  /// The running download ended, or handed over to another: it shows nothing now (the
  /// journal does); the readers are woken.
  func detach() {
    change { state in
      state.source = nil
      state.onDemand = nil
    }
  }

  /// Makes `edit`, counts it in ``State/changes`` and wakes the readers.
  private func change(_ edit: (inout State) -> Void) {
    let handlers = state.withLock { state in
      edit(&state)
      state.changes += 1
      return Array(state.wakers.values)
    }
    for wake in handlers { wake() }
  }

  /// The running download's source, nil when none runs.
  var source: Source? { state.withLock { $0.source } }

  /// The running download's source (nil when none runs) and the count of changes, read
  /// together.
  var sourceAndChanges: (source: Source?, changes: Int) {
    state.withLock { ($0.source, $0.changes) }
  }

  /// How many times the download started the file over since the playback began.
  var restarts: Int { state.withLock { $0.restarts } }

  /// The download started the file over (the resource changed): what readers read before is
  /// another version.
  func didRestart() {
    change { $0.restarts += 1 }
  }

  /// Bytes landed: wakes the readers that wait. Cheap when none does (one atomic load), so
  /// a download calls it after every write.
  func didLand() {
    guard waiting.load(ordering: .relaxed) else { return }
    let handlers = state.withLock { Array($0.wakers.values) }
    for wake in handlers { wake() }
  }
}

extension FilePlayback: Equatable, IdleTelling {
  /// Whether nothing holds the playback: no reader, and no download attached.
  var isIdle: Bool { !hasReaders && source?.isRunning != true }

  /// Two playbacks are equal only when they are the same one.
  static func == (lhs: FilePlayback, rhs: FilePlayback) -> Bool { lhs === rhs }
}
