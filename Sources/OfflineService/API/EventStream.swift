import Foundation
import OfflineLocks

/// One `GET /api/events` subscriber: Server-Sent Events text waiting to be sent, read by
/// the connection without ever waiting.
///
/// A subscriber that falls more than ``limit`` bytes behind (a client that stopped reading)
/// is ended rather than buffered without bound.
///
/// A stream made `holding` keeps what is pushed until ``open(with:)`` puts its opening text
/// in front: so a subscriber can be registered before its opening is read, and no event
/// sent meanwhile is lost or comes before the opening.
final class EventStream: HTTPBodyStream {
  /// The most bytes held for a slow subscriber.
  static let limit = 4 << 20

  private let state: Locked<State>
  private let onClose: @Sendable (ObjectIdentifier) -> Void

  private struct State {
    var pending = Data()
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
  func open(with opening: String) {
    let waker = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.holding else { return nil }
      state.holding = false
      guard !state.finished || !state.pending.isEmpty else { return state.waker }
      state.pending = Data(opening.utf8) + state.pending
      return state.waker
    }
    waker?()
  }

  /// Queues `text` (one or more whole events); false when the subscriber is too far behind
  /// or the stream is finished.
  @discardableResult
  func push(_ text: String) -> Bool {
    let (accepted, waker) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
      guard !state.finished else { return (false, nil) }
      guard state.pending.count + text.utf8.count <= Self.limit else {
        state.finished = true
        state.pending = Data()
        return (false, state.waker)
      }
      state.pending.append(contentsOf: text.utf8)
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

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
    state.withLock { state in
      if state.holding { return state.finished ? .end : .later }
      if state.pending.isEmpty { return state.finished ? .end : .later }
      let count = min(buffer.count, state.pending.count)
      state.pending.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: count)
      state.pending.removeFirst(count)
      return .bytes(count)
    }
  }

  func setWaker(_ waker: @escaping @Sendable () -> Void) {
    state.withLock { $0.waker = waker }
  }

  func close() {
    state.withLock { state in
      state.finished = true
      state.waker = nil
    }
    onClose(ObjectIdentifier(self))
  }
}
