import OfflineLocks

/// A playback that says when nothing holds it any more, so its registry can forget it.
protocol IdleTelling: AnyObject, Sendable {
  /// A playback with nothing in it yet.
  init()
  /// Whether nothing holds it: no player or reader waiting, no download attached.
  var isIdle: Bool { get }
}

/// The playbacks of a manager's contents of one kind (``FilePlayback``,
/// ``StreamPlayback``), one per content while a player holds it or its download runs.
final class Playbacks<Playback: IdleTelling>: Sendable {
  private let playbacks = Locked([String: Playback]())

  /// The playback of content `id`, made when there is none.
  func playback(of id: String) -> Playback {
    playbacks.withLock { all in
      if let known = all[id] { return known }
      let made = Playback()
      all[id] = made
      return made
    }
  }

  /// The playback of content `id` if one is open.
  func existing(_ id: String) -> Playback? {
    playbacks.withLock { $0[id] }
  }

  /// Forgets the playback of content `id` when it is idle: a download ended, or a player
  /// let go.
  func forgetIfIdle(_ id: String) {
    playbacks.withLock { all in
      guard let playback = all[id], playback.isIdle else { return }
      all[id] = nil
    }
  }
}
