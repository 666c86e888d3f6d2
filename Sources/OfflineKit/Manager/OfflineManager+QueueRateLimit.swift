import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// The name of the stored cap in the index's queue settings.
  static let rateLimitSetting = "rateLimit"

  /// The cap over the queue's running downloads kept in the store (`offline limit`):
  /// nil when none was kept, `.some(nil)` for "no cap".
  public func storedRateLimit() throws(OfflineError) -> ByteRate?? {
    try indexStep { try index.contents.queueSetting(Self.rateLimitSetting) }.map(Self.rate(from:))
  }

  /// Keeps `rate` as the cap over every running download of the store's queue, nil for no
  /// cap: the runner (this manager, or one in another process) applies it within its poll
  /// interval, as it applies a pause, and a later runner starts with it unless its
  /// ``OfflineManager/Configuration/rateLimit`` is set.
  public func setStoredRateLimit(_ rate: ByteRate?) throws(OfflineError) {
    let text = rate.map { "\($0.bytesPerSecond)" } ?? "none"
    try indexStep { try index.contents.setQueueSetting(Self.rateLimitSetting, to: text) }
    if runnerLock != nil { followStoredRateLimit() }
  }

  /// Applies the stored cap when it changed since this runner last looked; `starting` also
  /// applies one kept before, unless the configuration gives a cap of its own.
  func followStoredRateLimit(starting: Bool = false) {
    guard let stored = try? index.contents.queueSetting(Self.rateLimitSetting) else {
      seenRateLimitSetting = nil
      return
    }
    defer { seenRateLimitSetting = stored }
    if starting {
      if configuration.rateLimit == nil { setRateLimit(Self.rate(from: stored)) }
    } else if stored != seenRateLimitSetting {
      setRateLimit(Self.rate(from: stored))
    }
  }

  private static func rate(from text: String) -> ByteRate? {
    Int64(text).map { ByteRate(bytesPerSecond: $0) }
  }
}
