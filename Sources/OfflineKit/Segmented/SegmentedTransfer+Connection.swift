import Foundation
import OfflineHTTP

extension SegmentedTransfer {
  /// One connection: claims ranges until none is left, fetching each in requests of a
  /// bounded span (``RangeBoard/beginRequest(_:preferredSpan:source:sourcePace:)``), about
  /// ``requestDuration`` each at the pace its last request kept, and retrying transient
  /// failures.
  ///
  /// With `only`, it fetches that slot (claimed for a reader,
  /// ``RangeBoard/claim(demandedAt:soon:)``), starting with a short request so the reader's
  /// bytes come at once, and ends after ``readerSpan`` bytes or the slot's end, leaving the
  /// rest of the slot to any connection: a reader that reads on asks again from where it is.
  ///
  /// With mirrors, each request goes to the source ``MirrorSources/pick()`` gives; a
  /// mirror's failure is weighed there (tried again, boxed, dropped) instead of counting
  /// against the connection's retries, and a mirror that answers other bytes than asked
  /// is dropped before any of them is written.
  func connection(
    _ board: RangeBoard, fd: Int32, total: Int64, validator: String, sources: MirrorSources,
    checker: PieceChecker?, onEvent: @escaping @Sendable (Transfer.Event) -> Void,
    only: Int? = nil
  ) async throws {
    // Unknown until a request shows the pace; a reader's first request is short.
    var span: Int64? = only == nil ? nil : board.minimumSplit
    var claimed = only
    while true {
      var next = claimed
      // The end game's taker sends its first request to the source it was judged by.
      var taker: Int?
      if next == nil, only == nil, let found = try await claim(board, sources: sources) {
        (next, taker) = (found.slot, found.taker)
      }
      guard let slot = next else { break }
      claimed = nil
      var failures = 0
      let start = board.range(slot).next
      while board.range(slot).remaining > 0 {
        try Task.checkCancellation()
        if only != nil, board.range(slot).next - start >= readerSpan { break }
        // A reader's bytes come from the primary: its pace is the one known to hold. A piece
        // found bad is fetched again from another source than the one that served it.
        let avoid = board.avoided(slot)
        let source =
          only != nil
          ? (index: 0, url: transfer.url, validator: nil)
          : taker.map { sources.pick(preferring: $0, avoiding: avoid) }
            ?? sources.pick(avoiding: avoid)
        taker = nil
        // With mirrors, a request lasts about as long whichever source it goes to.
        let preferred =
          sources.hasMirrors ? sources.span(of: source.index) ?? Self.firstSpanWithMirrors : span
        let asked = board.beginRequest(
          slot, preferredSpan: preferred,
          source: sources.hasMirrors ? source.index : nil,
          sourcePace: sources.hasMirrors ? sources.pace(of: source.index) : nil)
        // The pieces this request writes whole are hashed in the read-back the chunk
        // digests make, so checking them reads no byte again.
        let pieces = checker.map { checker in
          let finds = checker.ledger.badFinds
          return BlockHasher(blockSize: checker.pieceLength, length: total) {
            checker.digested($0, sha256: $1, finds: finds)
          }
        }
        let sink = RangeSink(
          board: board, slot: slot, request: asked, descriptor: fd,
          chunks: hashesChunks ? ChunkHasher(digests: digests, length: total) : nil,
          pieces: pieces)
        if source.index > 0 { sink.expectedTotal = total }
        if let checker {
          // Each piece is checked as soon as its bytes are written, its writers known first.
          sink.pieceLength = checker.pieceLength
          let readBackFrom = sink.expectedStart
          sink.landed = { bytes in
            sources.wrote(bytes, by: source.index)
            checker.landed(bytes, readBackFrom: readBackFrom)
          }
        }
        var request = source.index == 0 ? transfer.request() : transfer.session.request(source.url)
        // A reader's bytes take the whole of a cap while they come; the rest waits.
        request.hasRatePriority = only != nil
        request.headers.add(
          name: "Range", value: "bytes=\(asked.lowerBound)-\(asked.upperBound - 1)")
        if let ifRange = source.index == 0 ? validator : source.validator {
          request.headers.add(name: "If-Range", value: ifRange)
        }
        let started = ContinuousClock.now
        var failure: HTTPError?
        do throws(HTTPError) {
          _ = try await transfer.transport.perform(request, delegate: sink)
        } catch {
          failure = error
        }
        board.endRequest(slot)
        if sources.hasMirrors, let arrived = sink.headArrived {
          sources.didAnswer(source.index, after: started.duration(to: arrived))
        }
        // Before the next request, the finish, or the file's close: nothing reads it for this
        // sink after.
        sink.finishHashing()
        let elapsed = started.duration(to: .now)
        // Who wrote which bytes matters only to blame a bad piece on its source.
        sink.flushLanded()
        if sources.hasMirrors {
          let step = try weigh(
            source.index, sink: sink, failure: failure, elapsed: elapsed, sources: sources,
            onEvent: onEvent)
          // Requests of this source still in flight are judged by its pace as it now stands.
          board.didMeasure(source: source.index, pace: sources.pace(of: source.index))
          if let step {
            if step == .nextRange { break }
            continue
          }
        }
        if let error = failure {
          if sink.rangeDone { break }
          if error.kind == .canceled { throw transfer.failure(.canceled) }
          if let failure = sink.writeFailure { throw transfer.failure(.file(failure)) }
          let wrapped = transfer.failure(.network(error))
          failures = sink.received > 0 ? 1 : failures + 1
          guard error.isTransient, failures < transfer.configuration.retry.maximumAttempts else {
            board.release(slot)
            throw wrapped
          }
          try await transfer.configuration.clock.sleep(
            for: transfer.configuration.retry.delay(afterFailures: failures, retryAfter: nil))
          continue
        }
        if !sink.accepted { throw Inconsistent() }
        span = Self.span(received: sink.received, in: elapsed) ?? span
      }
      board.release(slot)
      if only != nil { return }
    }
  }

  /// About how long a connection's request runs (its span is what the last request brought
  /// in this time). Long next to a round trip, so the pause between two requests costs
  /// little (40 ms in a second: 4 %); short, so a connection added later finds bytes no
  /// request asks for yet.
  static let requestDuration: Duration = .seconds(1)

  /// The span of a request that would take ``requestDuration`` at the pace of one that
  /// brought `received` bytes in `elapsed`; nil when that was too short to tell.
  static func span(received: Int64, in elapsed: Duration) -> Int64? {
    guard received > 0, elapsed >= .milliseconds(20) else { return nil }
    return Int64(Double(received) / elapsed.inSeconds * requestDuration.inSeconds)
  }
}
