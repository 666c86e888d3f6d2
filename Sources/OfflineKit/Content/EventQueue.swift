import Foundation
import OfflineLocks

/// One subscriber's queue of events: every event in the order sent, none dropped, except
/// that progress is coalesced. A progress event replaces the one its content has waiting
/// when that is the content's latest pending event, so a consumer slower than the
/// downloads reads the newest progress and every state change, fact and result.
///
/// What waits is bounded by what changes: a few events per content and state change,
/// plus at most one progress per content.
final class EventQueue<Element: Sendable>: Sendable {
  private struct State {
    var pending: [Element] = []
    var head = 0
    var waiter: CheckedContinuation<Element?, Never>?
    var finished = false
  }

  private let state = Locked(State())
  /// The content an event is about.
  private let content: @Sendable (Element) -> String
  /// Whether an event is progress (which a newer progress of its content replaces).
  private let isProgress: @Sendable (Element) -> Bool

  init(
    content: @escaping @Sendable (Element) -> String,
    isProgress: @escaping @Sendable (Element) -> Bool
  ) {
    self.content = content
    self.isProgress = isProgress
  }

  /// Queues `element` (coalescing progress), or hands it to the waiting consumer.
  func push(_ element: Element) {
    let waiter: CheckedContinuation<Element?, Never>? = state.withLock { state in
      guard !state.finished else { return nil }
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      if isProgress(element) {
        let id = content(element)
        var index = state.pending.count - 1
        while index >= state.head, content(state.pending[index]) != id { index -= 1 }
        if index >= state.head, isProgress(state.pending[index]) {
          state.pending[index] = element
          return nil
        }
      }
      state.pending.append(element)
      return nil
    }
    waiter?.resume(returning: element)
  }

  /// The next event, waiting for one; nil once the queue is finished and drained, or when
  /// the waiting task is cancelled.
  func next() async -> Element? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
        let ready: (Element?)? = state.withLock { state in
          if state.head < state.pending.count {
            let element = state.pending[state.head]
            state.head += 1
            if state.head == state.pending.count {
              state.pending.removeAll(keepingCapacity: true)
              state.head = 0
            }
            return .some(element)
          }
          if state.finished || Task.isCancelled { return .some(nil) }
          state.waiter = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      finish(draining: false)
    }
  }

  /// Ends the queue: the consumer reads what is pending (when `draining`), then nil.
  func finish(draining: Bool = true) {
    let waiter = state.withLock { state in
      state.finished = true
      if !draining {
        state.pending = []
        state.head = 0
      }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: nil)
  }
}

/// A subscription to a content's (or every content's) events: an async sequence for one
/// consumer. Every state change, fact and result comes in order and none is dropped for a
/// slow consumer; progress is coalesced to the newest. The sequence ends when the manager
/// closes, or for a consumer that is cancelled; a subscription no longer referenced stops
/// receiving.
public struct OfflineEvents<Element: Sendable>: AsyncSequence, Sendable {
  /// Reads the events of an ``OfflineEvents`` subscription, one at a time.
  public struct Iterator: AsyncIteratorProtocol {
    let subscription: Subscription

    /// The next event, waiting for it; nil when the subscription ended.
    public mutating func next() async -> Element? {
      await subscription.queue.next()
    }
  }

  /// Ties the queue to the hub: unregisters it when the last reference goes.
  final class Subscription: Sendable {
    let queue: EventQueue<Element>
    private let end: @Sendable () -> Void

    init(queue: EventQueue<Element>, end: @escaping @Sendable () -> Void) {
      self.queue = queue
      self.end = end
    }

    deinit {
      end()
      queue.finish(draining: false)
    }
  }

  let subscription: Subscription

  /// Makes the iterator; one consumer reads each subscription.
  public func makeAsyncIterator() -> Iterator {
    Iterator(subscription: subscription)
  }
}
