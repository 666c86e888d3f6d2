import Foundation
import OfflineHTTP

extension SegmentedTransfer {
  /// What a connection does after a request that ``weigh(_:sink:failure:elapsed:sources:onEvent:)``
  /// settled.
  enum SourceStep {
    /// Send the next request for the same range (to whichever source is picked then).
    case nextRequest
    /// The range is complete: claim another.
    case nextRange
  }

  /// A range to fetch (``RangeBoard/claim()``). With mirrors, a connection that finds none
  /// while other ranges are still being fetched plays the end game: it takes over the tail
  /// of a request its fastest source would finish well before it
  /// (``RangeBoard/claimTail(pace:startup:)``), else looks again every ``reclaimInterval``
  /// instead of ending (a slow source's request becomes one to split or take over once its
  /// pace is known). Nil once every byte is written; `taker` is the source a tail's first
  /// request goes to (the one whose pace the takeover was judged by).
  func claim(_ board: RangeBoard, sources: MirrorSources) async throws -> (
    slot: Int, taker: Int?
  )? {
    if let slot = board.claim() { return (slot, nil) }
    guard sources.hasMirrors else { return nil }
    while !board.isComplete {
      if let fastest = sources.fastest,
        let slot = board.claimTail(
          pace: fastest.pace,
          startup: sources.firstByte(of: fastest.index) ?? Self.takeoverStartup)
      {
        return (slot, fastest.index)
      }
      try await Task.sleep(for: Self.reclaimInterval)
      if let slot = board.claim() { return (slot, nil) }
    }
    return nil
  }

  /// How long the end game's taker expects its request to take to bring a first byte
  /// before a request of its source has told it (``MirrorSources/firstByte(of:)``): a round
  /// trip or two on the internet, a few milliseconds on a LAN. The slow request keeps what
  /// it brings in that time (``TailTakeover``); with this guess on loopback, a 4 MiB/s mirror
  /// whose pace its burst had inflated kept 775 KiB and held the end of a 1 GiB file 0.9 s
  /// after the rest was done (`benchmarks/mirrors-judge.sh`).
  static let takeoverStartup: Duration = .milliseconds(100)

  /// The span of a request to a source whose pace is not known yet, with mirrors: short,
  /// so a slow one is measured soon and holds little (a 16 MiB first request took 4 s
  /// from a mirror at 4 MiB/s, and nothing cuts a request other connections can split
  /// past), at the cost of a round trip more for a fast one.
  static let firstSpanWithMirrors: Int64 = 2 << 20

  /// How often a connection with nothing to claim looks again, with mirrors.
  static let reclaimInterval: Duration = .milliseconds(100)

  /// Weighs a request's end for its source (`index` in `sources`; 0 the primary): counts
  /// its bytes and time toward the source's measured pace, and decides for a mirror what
  /// its failure means (tried again, boxed, dropped: each drop told to `onEvent` as
  /// ``Transfer/Event/sourceDropped(_:reason:)``). Returns nil when the connection's own
  /// handling goes on: a request that ended well, or the primary's failure, which its
  /// retry policy decides as without mirrors.
  ///
  /// - Throws: ``Transfer/Error`` for a stop (`canceled`) or a write that failed, whatever
  ///   the source.
  func weigh(
    _ index: Int, sink: RangeSink, failure: HTTPError?, elapsed: Duration,
    sources: MirrorSources, onEvent: @Sendable (Transfer.Event) -> Void
  ) throws(Transfer.Error) -> SourceStep? {
    func fail() {
      if case .dropped(let reason) = sources.didFail(index, bytes: sink.received, in: elapsed) {
        onEvent(.sourceDropped(sources.urls[index], reason: reason.description))
      }
    }
    if let failure {
      if sink.rangeDone {
        sources.didFinish(index, bytes: sink.received, in: elapsed)
        return .nextRange
      }
      if failure.kind == .canceled { throw transfer.failure(.canceled) }
      if let problem = sink.writeFailure { throw transfer.failure(.file(problem)) }
      fail()
      return index == 0 ? nil : .nextRequest
    }
    guard sink.accepted else {
      guard index > 0 else {
        _ = sources.didAnswerInconsistently(0)
        return nil  // the primary changed: the file starts over, as without mirrors
      }
      // A mirror that lost the file (404) or is busy (5xx) may come back: boxed; one that
      // answers other bytes (a 200, another range, another length) is dropped at once.
      if let status = sink.head?.status, status >= 400 {
        fail()
      } else if let reason = sources.didAnswerInconsistently(index) {
        onEvent(.sourceDropped(sources.urls[index], reason: reason.description))
      }
      return .nextRequest
    }
    sources.didFinish(index, bytes: sink.received, in: elapsed)
    return nil
  }
}
