import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// The name of the stored cap in the index's queue settings.
  static let rateLimitSetting = "rateLimit"

  /// A cap kept in the store: ``setRateLimit(_:keep:)`` with `keep`.
  package enum KeptRateLimit: Sendable, Equatable {
    /// "No cap" was kept.
    case unlimited
    /// This cap was kept.
    case limited(ByteRate)
  }

  /// The cap over the queue's running downloads kept in the store, nil when none was kept.
  package func keptRateLimit() throws(OfflineError) -> KeptRateLimit? {
    try indexStep { try index.contents.queueSetting(Self.rateLimitSetting) }.map {
      QueueMachine.rate(from: $0).map(KeptRateLimit.limited) ?? .unlimited
    }
  }

  /// Keeps `rate` as the cap over every running download of the store's queue, nil for no
  /// cap, for the runner to follow (see ``setRateLimit(_:keep:)``).
  func keepRateLimit(_ rate: ByteRate?) throws(OfflineError) {
    let text = rate.map { "\($0.bytesPerSecond)" } ?? "none"
    try indexStep { try index.contents.setQueueSetting(Self.rateLimitSetting, to: text) }
    if runner.holdsLock { followStoredRateLimit() }
  }

  /// Applies the stored cap when it changed since this runner last looked; `starting` also
  /// applies one kept before, unless the configuration gives a cap of its own.
  func followStoredRateLimit(starting: Bool = false) {
    // Unreadable counts as none kept: the next change read looks again.
    let stored = try? index.contents.queueSetting(Self.rateLimitSetting)
    let change = machine.didReadRateLimit(
      stored, starting: starting, configured: configuration.rateLimit != nil)
    if case .apply(let rate) = change { sessions.queueBudget.setRate(rate) }
  }
}
