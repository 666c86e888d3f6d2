/// What the runner does when the index changed in another process (a cancel, a pause, a
/// finish, a delete there): decided as a value from what the index says now and what this
/// process knows, and carried out by the actor.
enum ExternalChange: Sendable, Equatable {
  /// A cancel whose download does not run here: its files and records go now.
  case finishCleanup(String)
  /// A cancel whose download runs here: its files go once it has stopped, or its last
  /// journal write could land after the cleanup and leave an entry behind.
  case stopThenFinishCleanup(String)
  /// Its download runs here but the index no longer says `downloading` (paused, or gone).
  case stop(String)
  /// Its state moved elsewhere from `after`: subscribers hear where it stands, and of the
  /// end of the attempt when it ended.
  case announce(String, after: OfflineState)

  /// The changes to carry out.
  ///
  /// - Parameters:
  ///   - canceling: the contents the index says are canceling.
  ///   - stopping: those whose download this process is stopping already.
  ///   - running: those whose download runs here.
  ///   - states: the state the index gives each content of `running` and `known` (absent:
  ///     gone from it).
  ///   - known: the state this process last saw of each content it tells subscribers of.
  static func decide(
    canceling: [String], stopping: Set<String>, running: Set<String>,
    states: [String: OfflineState], known: [String: OfflineState]
  ) -> [ExternalChange] {
    var changes: [ExternalChange] = []
    for id in canceling where !stopping.contains(id) {
      changes.append(running.contains(id) ? .stopThenFinishCleanup(id) : .finishCleanup(id))
    }
    for id in running.sorted() where states[id] != .downloading {
      changes.append(.stop(id))
    }
    for (id, before) in known.sorted(by: { $0.key < $1.key }) {
      guard let now = states[id], now != before else { continue }
      changes.append(.announce(id, after: before))
    }
    return changes
  }
}
