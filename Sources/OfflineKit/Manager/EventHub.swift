import Foundation

/// The subscribers of each content's events: a fresh `AsyncStream` per subscriber, fed in
/// order. Owned by the ``OfflineManager`` actor, so it needs no lock of its own.
struct EventHub {
  private var subscribers: [String: [UUID: AsyncStream<OfflineContent.Event>.Continuation]] = [:]
  private var everything: [UUID: AsyncStream<(String, OfflineContent.Event)>.Continuation] = [:]
  /// The last progress sent per content, so progress never moves backwards.
  private var lastProgress: [String: OfflineProgress] = [:]

  /// A new stream for `id`, starting with `current`.
  mutating func subscribe(
    id: String, current: OfflineState, onTermination: @escaping @Sendable (UUID) -> Void
  ) -> AsyncStream<OfflineContent.Event> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: OfflineContent.Event.self, bufferingPolicy: .bufferingNewest(256))
    let token = UUID()
    continuation.onTermination = { _ in onTermination(token) }
    continuation.yield(.stateChanged(current))
    subscribers[id, default: [:]][token] = continuation
    return stream
  }

  mutating func unsubscribe(id: String, token: UUID) {
    subscribers[id]?[token] = nil
  }

  /// A new stream of every content's events, with their ids.
  mutating func subscribeAll(onTermination: @escaping @Sendable (UUID) -> Void)
    -> AsyncStream<(String, OfflineContent.Event)>
  {
    let (stream, continuation) = AsyncStream.makeStream(
      of: (String, OfflineContent.Event).self, bufferingPolicy: .bufferingNewest(1024))
    let token = UUID()
    continuation.onTermination = { _ in onTermination(token) }
    everything[token] = continuation
    return stream
  }

  mutating func unsubscribeAll(token: UUID) {
    everything[token] = nil
  }

  func send(_ event: OfflineContent.Event, to id: String) {
    for continuation in subscribers[id]?.values ?? [:].values {
      continuation.yield(event)
    }
    for continuation in everything.values {
      continuation.yield((id, event))
    }
  }

  /// Sends progress, clamped so bytes never move backwards; returns what was sent.
  @discardableResult
  mutating func sendProgress(_ progress: OfflineProgress, to id: String) -> OfflineProgress {
    var clamped = progress
    if let last = lastProgress[id] { clamped.bytes = max(clamped.bytes, last.bytes) }
    lastProgress[id] = clamped
    send(.progress(clamped), to: id)
    return clamped
  }

  /// Forgets the progress of `id` (its data was deleted; it starts from zero next time).
  mutating func resetProgress(of id: String) {
    lastProgress[id] = nil
  }

  /// Ends every stream.
  mutating func finishAll() {
    for streams in subscribers.values {
      for continuation in streams.values { continuation.finish() }
    }
    subscribers = [:]
    for continuation in everything.values { continuation.finish() }
    everything = [:]
  }
}
