import Foundation
import OfflineLocks

/// One `GET /api/events` subscriber: Server-Sent Events text waiting to be sent, read by
/// the connection without ever waiting.
///
/// What waits is a queue of pieces that every subscriber shares: the broadcaster makes each
/// event's bytes once and pushes the same `Data` to all (a stalled subscriber holds a
/// reference, not a copy), and a batch of subscribers shares one opening. A subscriber that
/// falls more than ``limit`` bytes behind (a client that stopped reading) is ended and lets
/// go of what it held, rather than holding more.
///
/// A stream made `holding` keeps what is pushed until ``open(with:)`` puts its opening text
/// in front: so a subscriber can be registered before its opening is read, and no event
/// sent meanwhile is lost or comes before the opening.
final class EventStream: HTTPBodyStream {
  /// The most bytes of events waiting for one subscriber (beyond its opening).
  static let limit = 4 << 20

  private let state: Locked<State>
  private let onClose: @Sendable (ObjectIdentifier) -> Void

  fileprivate struct State {
    /// The opening (shared with the subscribers of its batch), sent first, from
    /// ``openingSent``; emptied once sent.
    var opening = Data()
    var openingSent = 0
    /// The events to send, in order; the first is sent from ``sent``.
    var pieces: [Data] = []
    var first = 0
    var sent = 0
    /// The bytes of events waiting (the opening is not counted).
    var waiting = 0
    /// Whether pushes wait behind an opening not given yet.
    var holding: Bool
    var finished = false
    var waker: (@Sendable () -> Void)?
  }

  /// A stream that calls `onClose` with its identity when its connection is gone; a
  /// `holding` one sends nothing before ``open(with:)``.
  init(holding: Bool = false, onClose: @escaping @Sendable (ObjectIdentifier) -> Void) {
    state = Locked(State(holding: holding))
    self.onClose = onClose
  }

  /// Puts `opening` in front of everything pushed so far and starts sending.
  func open(with opening: Data) {
    let waker = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.holding else { return nil }
      state.holding = false
      guard !state.finished else { return state.waker }
      state.opening = opening
      return state.waker
    }
    waker?()
  }

  /// Queues `event` (one or more whole events, shared with other subscribers); false when
  /// the subscriber is too far behind (it is ended and drops what it held) or the stream is
  /// finished.
  @discardableResult
  func push(_ event: Data) -> Bool {
    let (accepted, waker) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
      guard !state.finished else { return (false, nil) }
      guard state.waiting + event.count <= Self.limit else {
        state.finished = true
        state.drop()
        return (false, state.waker)
      }
      state.pieces.append(event)
      state.waiting += event.count
      return (true, state.waker)
    }
    waker?()
    return accepted
  }

  /// Ends the stream once what is queued is sent.
  func finish() {
    let waker = state.withLock { state in
      state.finished = true
      return state.waker
    }
    waker?()
  }

  /// The bytes of events waiting to be sent (the opening not counted).
  var bytesWaiting: Int { state.withLock { $0.waiting } }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
    state.withLock { state in
      if state.holding { return state.finished ? .end : .later }
      var written = 0
      if !state.opening.isEmpty {
        written = min(buffer.count, state.opening.count - state.openingSent)
        let start = state.opening.startIndex + state.openingSent
        state.opening.copyBytes(
          to: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<written]),
          from: start..<(start + written))
        state.openingSent += written
        if state.openingSent == state.opening.count {
          state.opening = Data()
          state.openingSent = 0
        }
      }
      if written == 0 && state.first == state.pieces.count {
        return state.finished ? .end : .later
      }
      while written < buffer.count && state.first < state.pieces.count {
        let piece = state.pieces[state.first]
        let count = min(buffer.count - written, piece.count - state.sent)
        let start = piece.startIndex + state.sent
        piece.copyBytes(
          to: UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + count)]),
          from: start..<(start + count))
        written += count
        state.sent += count
        if state.sent == piece.count { state.advance() }
      }
      return .bytes(written)
    }
  }

  func setWaker(_ waker: @escaping @Sendable () -> Void) {
    state.withLock { $0.waker = waker }
  }

  func close() {
    state.withLock { state in
      state.finished = true
      state.waker = nil
      state.drop()
    }
    onClose(ObjectIdentifier(self))
  }
}

extension EventStream.State {
  /// Moves past the first piece, which is sent whole; forgets sent pieces in batches.
  fileprivate mutating func advance() {
    waiting -= pieces[first].count
    sent = 0
    first += 1
    if first >= 64 || first == pieces.count {
      pieces.removeFirst(first)
      first = 0
    }
  }

  /// Lets go of everything held.
  fileprivate mutating func drop() {
    opening = Data()
    openingSent = 0
    pieces = []
    first = 0
    sent = 0
    waiting = 0
  }
}
