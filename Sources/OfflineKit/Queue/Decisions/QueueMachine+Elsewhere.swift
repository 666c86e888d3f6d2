import Foundation
import OfflineHTTP

extension QueueMachine {
  /// This process became the runner, with `counter` the index's count of other processes'
  /// commits then.
  mutating func didBecomeRunner(changeCounter counter: Int64) {
    lastExternalChange = counter
  }

  /// The runner read `counter`, the index's count of other processes' commits: whether
  /// another process changed the index since it last looked (then it follows the changes).
  mutating func didReadChangeCounter(_ counter: Int64) -> Bool {
    guard counter != lastExternalChange else { return false }
    lastExternalChange = counter
    return true
  }

  /// Another process changed the index: `canceling` are the contents it says are canceling,
  /// `states` the state it gives each of ``watchedIDs`` (absent: gone). What to do
  /// (``ExternalChange``); subscribers are told the new states, which the machine now knows.
  mutating func didChangeElsewhere(canceling: [String], states: [String: OfflineState])
    -> [ExternalChange]
  {
    let changes = ExternalChange.decide(
      canceling: canceling, stopping: stopping, running: runningIDs, states: states,
      known: knownStates)
    for case .announce(let id, _) in changes {
      knownStates[id] = states[id]
    }
    return changes
  }

  /// What the runner does with the queue's cap after reading the one kept in the store.
  enum RateLimitChange: Sendable, Equatable {
    /// Leave the cap as it is.
    case keep
    /// Apply this cap (nil: none).
    case apply(ByteRate?)
  }

  /// The runner read `stored`, the cap kept in the store (nil when none is kept, or it
  /// could not be read). On `starting`, a kept cap applies unless the configuration gives
  /// one (`configured`); later, one that changed since the runner last looked applies.
  mutating func didReadRateLimit(_ stored: String?, starting: Bool, configured: Bool)
    -> RateLimitChange
  {
    defer { appliedRateLimitSetting = stored }
    guard let stored else { return .keep }
    if starting { return configured ? .keep : .apply(Self.rate(from: stored)) }
    return stored == appliedRateLimitSetting ? .keep : .apply(Self.rate(from: stored))
  }

  /// The cap a kept setting says: bytes per second, or none ("none").
  static func rate(from text: String) -> ByteRate? {
    Int64(text).map { ByteRate(bytesPerSecond: $0) }
  }
}
