import Foundation

/// Why a content in ``ContentState/downloading`` is not moving, as the index stores it: the
/// name in the `wait_reason` column and, for a retry, its time in `retry_at`.
package enum ContentWaitReason: Sendable, Equatable {
  /// Behind the parallel limit.
  case queued
  /// No network: the host is unreachable from here. Goes on by itself when it is back.
  case network
  /// Not enough free disk space. Goes on by itself when there is.
  case storage
  /// A retry after a transient failure is due at this time.
  case retry(at: Date)
  /// Started, and no bytes have come yet (connecting, or waiting for the response).
  case starting

  /// The name stored in the index: `queued`, `network`, `storage`, `retry`, `starting`.
  package var name: String {
    switch self {
    case .queued: "queued"
    case .network: "network"
    case .storage: "storage"
    case .retry: "retry"
    case .starting: "starting"
    }
  }

  /// When a retry is due; nil for the other reasons.
  package var retryAt: Date? {
    if case .retry(let at) = self { return at }
    return nil
  }

  /// The reason stored as `name` (and `retryAt` for a retry); nil for a name this version
  /// does not know, or a retry without its time.
  package init?(name: String, retryAt: Date?) {
    switch name {
    case "queued": self = .queued
    case "network": self = .network
    case "storage": self = .storage
    case "retry":
      guard let retryAt else { return nil }
      self = .retry(at: retryAt)
    case "starting": self = .starting
    default: return nil
    }
  }
}
