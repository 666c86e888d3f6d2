import Foundation
import OfflineLocks

/// The subscribers of each content's events: a fresh ``OfflineEvents`` per subscriber, fed
/// in order, never dropping a state change or a result (``EventQueue``). Safe from any
/// thread (its state sits behind one lock, never held across an `await`), so a
/// subscription is made synchronously, before the caller's next call.
///
/// A subscriber is registered and handed the current state under the same lock that sends
/// take, so it misses nothing sent after the state it was handed. ``close()`` ends every
/// stream; one made afterwards holds the current state and ends.
final class EventHub: Sendable {
  private struct State {
    var subscribers: [String: [UUID: EventQueue<OfflineContent.Event>]] = [:]
    var everything: [UUID: EventQueue<(id: String, event: OfflineContent.Event)>] = [:]
    /// The last progress sent per content, so progress never moves backwards.
    var lastProgress: [String: OfflineProgress] = [:]
    var closed = false
  }

  private let state = Locked(State())

  /// A new stream for `id`, starting with `current()` (read under the lock, so nothing sent
  /// after it is missed). When the content cannot be read, the stream holds that error as
  /// its attempt's end and ends.
  func subscribe(id: String, current: () -> Result<OfflineContent.Snapshot, OfflineError>)
    -> OfflineEvents<OfflineContent.Event>
  {
    let queue = EventQueue<OfflineContent.Event>(
      content: { _ in id }, isProgress: { if case .progress = $0 { true } else { false } })
    let token = UUID()
    state.withLock { state in
      let now = current()
      switch now {
      case .success(let snapshot): queue.push(.changed(snapshot))
      case .failure(let error): queue.push(.finished(.failure(error)))
      }
      if state.closed || (try? now.get()) == nil {
        queue.finish()
      } else {
        state.subscribers[id, default: [:]][token] = queue
      }
    }
    return OfflineEvents(
      subscription: .init(queue: queue) { [weak self] in
        self?.state.withLock { $0.subscribers[id]?[token] = nil }
      })
  }

  /// A new stream of every content's events, with their ids, starting with the next one.
  func subscribeAll() -> OfflineEvents<(id: String, event: OfflineContent.Event)> {
    let queue = EventQueue<(id: String, event: OfflineContent.Event)>(
      content: { $0.id }, isProgress: { if case .progress = $0.event { true } else { false } })
    let token = UUID()
    state.withLock { state in
      if state.closed {
        queue.finish()
      } else {
        state.everything[token] = queue
      }
    }
    return OfflineEvents(
      subscription: .init(queue: queue) { [weak self] in
        self?.state.withLock { $0.everything[token] = nil }
      })
  }

  func send(_ event: OfflineContent.Event, to id: String) {
    state.withLock { state in
      // Bytes go back to zero after a restart: progress is clamped from there on.
      if case .restarted = event { state.lastProgress[id] = nil }
      for queue in state.subscribers[id]?.values ?? [:].values { queue.push(event) }
      for queue in state.everything.values { queue.push((id: id, event: event)) }
    }
  }

  /// Sends progress, clamped so bytes never move backwards; returns what was sent.
  @discardableResult
  func sendProgress(_ progress: OfflineProgress, to id: String) -> OfflineProgress {
    let clamped = state.withLock { state in
      var clamped = progress
      if let last = state.lastProgress[id] { clamped.bytes = max(clamped.bytes, last.bytes) }
      state.lastProgress[id] = clamped
      return clamped
    }
    send(.progress(clamped), to: id)
    return clamped
  }

  /// The last progress sent for `id` since its data was last deleted, if any.
  func lastProgress(of id: String) -> OfflineProgress? {
    state.withLock { $0.lastProgress[id] }
  }

  /// Forgets the progress of `id` (its data was deleted; it starts from zero next time).
  func resetProgress(of id: String) {
    state.withLock { $0.lastProgress[id] = nil }
  }

  /// Ends every stream, and every one made from now on after its first element.
  func close() {
    let ending = state.withLock { state in
      state.closed = true
      defer {
        state.subscribers = [:]
        state.everything = [:]
      }
      return (state.subscribers.values.flatMap(\.values), Array(state.everything.values))
    }
    for queue in ending.0 { queue.finish() }
    for queue in ending.1 { queue.finish() }
  }
}
