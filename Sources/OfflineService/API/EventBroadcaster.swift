import Foundation
import OfflineKit
import OfflineLocks

/// Sends the manager's events to every `GET /api/events` subscriber as Server-Sent Events
/// (one task reads the manager's stream; each subscriber has its own buffer), with a
/// comment every 15 seconds so proxies and dead clients are noticed.
final class EventBroadcaster: Sendable {
  private let manager: OfflineManager
  private let streams = Locked<[ObjectIdentifier: EventStream]>([:])
  private let tasks = Locked<[Task<Void, Never>]>([])
  private let speeds = Locked<[String: Double]>([:])
  /// Runs in ``subscribe()`` once the snapshots are read: a seam for tests, which send an
  /// event there to pin that none between the snapshots and the first event is lost.
  private let afterSnapshots: @Sendable () async -> Void
  private let openings: OpeningReads

  init(manager: OfflineManager, afterSnapshots: @escaping @Sendable () async -> Void = {}) {
    self.manager = manager
    self.afterSnapshots = afterSnapshots
    openings = OpeningReads { await Self.opening(of: manager) }
  }

  /// Starts reading the manager's events.
  func start() {
    let reader = Task { [weak self, manager] in
      for await (id, event) in manager.allEvents() {
        guard let self else { return }
        self.noteSpeed(of: event, id: id)
        self.send(EventText.render(event, id: id))
      }
    }
    let heartbeat = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(15))
        self?.send(": keep-alive\n\n")
      }
    }
    tasks.withLock { $0 = [reader, heartbeat] }
  }

  /// The latest smoothed rate of content `id` while it receives, in bytes per second.
  func speed(of id: String) -> Double {
    speeds.withLock { $0[id] ?? 0 }
  }

  /// The sum of the latest rates of the contents receiving now.
  var totalSpeed: Double {
    speeds.withLock { $0.values.reduce(0, +) }
  }

  private func noteSpeed(of event: OfflineContent.Event, id: String) {
    switch event {
    case .progress(let progress):
      let rate = progress.bytesPerSecond.isFinite ? progress.bytesPerSecond : 0
      speeds.withLock { $0[id] = rate }
    case .changed(let snapshot) where snapshot.state == .downloading && snapshot.waitReason == nil:
      break  // moving: its rate stays until the next progress
    case .keysRenewed, .restarted:
      break
    case .changed, .finished:
      _ = speeds.withLock { $0.removeValue(forKey: id) }
    }
  }

  /// A new subscriber, starting with one `content` event per content (the current state),
  /// then every event sent since it subscribed.
  ///
  /// The subscriber is registered before the snapshots are read, holding what is sent
  /// until its opening is in front: an event sent while they are read is not lost (it was,
  /// when registration came after), and each event is queued once. One sent meanwhile may
  /// describe a moment before the snapshot; every later change sends another, so the
  /// subscriber ends at the current state. Subscribers that arrive together share one read
  /// of the snapshots (``OpeningReads``): 150 of them each listing every content kept the
  /// manager busy for a minute.
  func subscribe() async -> EventStream {
    let stream = EventStream(holding: true) { [weak self] id in
      _ = self?.streams.withLock { $0.removeValue(forKey: id) }
    }
    streams.withLock { $0[ObjectIdentifier(stream)] = stream }
    let opening = await openings.next()
    await afterSnapshots()
    stream.open(with: opening)
    return stream
  }

  /// The opening of a subscriber: the retry delay, then every content as it is now.
  private static func opening(of manager: OfflineManager) async -> Data {
    var opening = "retry: 2000\n\n"
    for snapshot in (try? await manager.snapshots()) ?? [] {
      opening += EventText.event("content", ContentProjection(snapshot))
    }
    return Data(opening.utf8)
  }

  /// Sends `text` to every subscriber (an event the API itself causes, such as `forgotten`):
  /// its bytes are made once and shared by all.
  func send(_ text: String) {
    let event = Data(text.utf8)
    let all = streams.withLock { Array($0.values) }
    for stream in all where !stream.push(event) {
      _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }
  }

  /// Ends every subscriber's stream and stops reading the manager.
  func finish() {
    for task in tasks.withLock({ $0 }) { task.cancel() }
    let all = streams.withLock { streams in
      defer { streams = [:] }
      return Array(streams.values)
    }
    for stream in all { stream.finish() }
  }
}
