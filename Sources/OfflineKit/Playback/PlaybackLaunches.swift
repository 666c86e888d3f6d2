import OfflineLocks

/// Asks a manager to start a content a player waits for, when it waits in the queue or is a
/// paused stream (``OfflineManager/launchForPlayback(_:)``): at most once per ``interval``,
/// since a waiting player asks again each time it looks.
struct PlaybackLaunches: Sendable {
  /// The shortest time between two asks.
  static let interval: Duration = .seconds(1)

  let manager: OfflineManager
  let contentID: String
  private let lastAsked = Locked<ContinuousClock.Instant?>(nil)

  init(manager: OfflineManager, contentID: String) {
    self.manager = manager
    self.contentID = contentID
  }

  /// Asks, unless it did less than ``interval`` ago.
  func ask() {
    let now = ContinuousClock.now
    let due = lastAsked.withLock { last in
      if let last, last.duration(to: now) < Self.interval { return false }
      last = now
      return true
    }
    guard due else { return }
    let (manager, id) = (self.manager, contentID)
    Task { await manager.launchForPlayback(id) }
  }
}
